import { router } from '../../trpc/procedures.ts';

/** The finance procedures (none yet: the page is not built). */
export const financeRouter = router({});
