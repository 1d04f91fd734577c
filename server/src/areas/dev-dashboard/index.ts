import { defineServerArea } from '../area.ts';
import { devDashboardMigrations } from './dev-dashboard.migrations.ts';
import { devDashboardRouter } from './dev-dashboard.router.ts';
import { stopRuns } from './dev-dashboard.service.ts';
import { devCommandsOf } from './dev-commands.ts';

export const devDashboardArea = defineServerArea({
  router: devDashboardRouter,
  migrations: devDashboardMigrations,
  // The commands file is read and checked at start: a bad one stops the start, naming the problem.
  checkConfig: (config) => void devCommandsOf(config),
  // Runs of this process end with it (their rows say 'interrupted'), and shutdown waits for that.
  worker: (deps) => ({ stop: () => stopRuns(deps) }),
});
