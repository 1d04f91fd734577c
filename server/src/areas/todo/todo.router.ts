import { router } from '../../trpc/procedures.ts';

/** The todo procedures (none yet: the page is not built). */
export const todoRouter = router({});
