import { defineArea } from '../area.ts';

export const devDashboardRoutes = defineArea({
  pages: {
    '/admin/dev-dashboard': { access: 3, label: 'Dev Dash', group: 'admin' },
  },
});
