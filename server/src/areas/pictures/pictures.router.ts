import { router } from '../../trpc/procedures.ts';

/** The pictures procedures (none yet: the page is not built). */
export const picturesRouter = router({});
