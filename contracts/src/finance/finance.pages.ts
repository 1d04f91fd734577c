import type { PageRow } from '../area.ts';

/** The pages of financeRoutes (finance.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const financePages = {
  '/admin/finances': { access: 3, label: 'Finance', group: 'admin' },
} as const satisfies Record<string, PageRow>;
