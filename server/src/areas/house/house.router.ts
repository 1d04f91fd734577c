import { router } from '../../trpc/procedures.ts';

/** The house procedures (none yet: the page is not built). */
export const houseRouter = router({});
