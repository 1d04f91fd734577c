import { router } from '../../trpc/procedures.ts';

/** The climbing procedures (none yet: the page is not built). */
export const climbingRouter = router({});
