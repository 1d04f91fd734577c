import type { PageRow } from '../area.ts';

/** The pages of devDashboardRoutes (dev-dashboard.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const devDashboardPages = {
  '/admin/dev-dashboard': { access: 3, label: 'Dev Dash', group: 'admin' },
} as const satisfies Record<string, PageRow>;
