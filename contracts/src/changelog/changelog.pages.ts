import type { PageRow } from '../area.ts';

/** The pages of changelogRoutes (changelog.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const changelogPages = {
  '/personal/changelog': { access: 1, label: 'Changelog', group: 'cool' },
} as const satisfies Record<string, PageRow>;
