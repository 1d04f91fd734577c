import type { PageRow } from '../area.ts';

/** The pages of developersRoutes (developers.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const developersPages = {
  '/personal/api': { access: 1, label: 'API reference', group: 'cool' },
} as const satisfies Record<string, PageRow>;
