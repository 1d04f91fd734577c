import type { PageRow } from '../area.ts';

/** The pages of hubRoutes (hub.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const hubPages = {
  '/personal': { access: 1, label: 'Personal' },
} as const satisfies Record<string, PageRow>;
