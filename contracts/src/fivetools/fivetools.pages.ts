import type { PageRow } from '../area.ts';

/** The pages of fivetoolsRoutes (fivetools.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const fivetoolsPages = {
  '/personal/5etools': { access: 1, label: '5eTools', group: 'cool' },
} as const satisfies Record<string, PageRow>;
