import type { PageRow } from '../area.ts';

/** The pages of aboutRoutes (about.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const aboutPages = {
  '/about': { access: 'public', label: 'About' },
} as const satisfies Record<string, PageRow>;
