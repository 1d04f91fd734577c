import type { PageRow } from '../area.ts';

/** The pages of planRoutes (plan.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const planPages = {
  '/house/plan': { access: 2, label: 'Meal plan', group: 'cool' },
} as const satisfies Record<string, PageRow>;

/** The pages of choresRoutes (plan.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const choresPages = {
  '/house/chores': { access: 2, label: 'Chores', group: 'cool' },
} as const satisfies Record<string, PageRow>;
