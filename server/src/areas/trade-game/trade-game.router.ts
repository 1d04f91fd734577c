import { router } from '../../trpc/procedures.ts';

/** The trade-game procedures (none yet: the page is not built). */
export const tradeGameRouter = router({});
