import { router } from '../../trpc/procedures.ts';

/** The fivetools procedures (none yet: the page is not built). */
export const fivetoolsRouter = router({});
