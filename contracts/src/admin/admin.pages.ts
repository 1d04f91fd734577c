import type { PageRow } from '../area.ts';

/** The pages of adminRoutes (admin.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const adminPages = {
  '/admin': { access: 3, label: 'Admin Dash', group: 'admin' },
} as const satisfies Record<string, PageRow>;
