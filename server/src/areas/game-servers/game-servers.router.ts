import { router } from '../../trpc/procedures.ts';

/** The game-servers procedures (none yet: the page is not built). */
export const gameServersRouter = router({});
