import { router } from '../../trpc/procedures.ts';

/** The recipes procedures (none yet: the page is not built). */
export const recipesRouter = router({});
