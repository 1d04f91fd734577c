import { defineArea } from '../area.ts';
import { devDashboardPages } from './dev-dashboard.pages.ts';

const confirm = { confirm: 'confirm' } as const;

export const devDashboardRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'devDashboard.status': 3,
    'devDashboard.runs': 3,
    'devDashboard.run': 3,
    'devDashboard.devPull': 3,
    'devDashboard.prodPull': 3,
    'devDashboard.devLaunch': 3,
    'devDashboard.reboot': 3,
  },
  pages: devDashboardPages,
  api: {
    '/api/dev/dev-pull': { procedure: 'devDashboard.devPull', input: confirm },
    '/api/dev/prod-pull': { procedure: 'devDashboard.prodPull', input: confirm },
    '/api/dev/dev-launch': { procedure: 'devDashboard.devLaunch', input: confirm },
    '/api/dev/reboot': { procedure: 'devDashboard.reboot', input: confirm },
  },
});
