import type { PageRow } from '../area.ts';

/** The pages of climbingRoutes (climbing.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const climbingPages = {
  '/personal/climbing-passes': { access: 2, label: 'Climb Passes', group: 'cool' },
} as const satisfies Record<string, PageRow>;
