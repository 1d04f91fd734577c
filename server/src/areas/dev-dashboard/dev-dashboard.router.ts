import { router } from '../../trpc/procedures.ts';

/** The dev-dashboard procedures (none yet: the page is not built). */
export const devDashboardRouter = router({});
