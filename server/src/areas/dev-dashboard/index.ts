import { defineServerArea } from '../area.ts';
import { devDashboardMigrations } from './dev-dashboard.migrations.ts';
import { devDashboardRouter } from './dev-dashboard.router.ts';
import { stopRuns } from './dev-dashboard.service.ts';

export const devDashboardArea = defineServerArea({
  router: devDashboardRouter,
  migrations: devDashboardMigrations,
  // Runs of this process end with it (their rows say 'interrupted'), and shutdown waits for that.
  worker: (deps) => ({ stop: () => stopRuns(deps) }),
});
