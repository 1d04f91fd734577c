import type { PageRow } from '../area.ts';

/** The pages of settingsRoutes (settings.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const settingsPages = {
  '/personal/settings': { access: 1, label: 'Settings', group: 'cool' },
} as const satisfies Record<string, PageRow>;
