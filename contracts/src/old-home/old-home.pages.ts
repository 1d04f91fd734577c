import type { PageRow } from '../area.ts';

/** The pages of oldHomeRoutes (old-home.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const oldHomePages = {
  '/admin/old-home': { access: 3, label: 'Old Home', group: 'admin' },
} as const satisfies Record<string, PageRow>;
