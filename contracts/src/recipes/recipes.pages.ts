import type { PageRow } from '../area.ts';

/** The pages of recipesRoutes (recipes.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const recipesPages = {
  '/personal/recipes': { access: 3, alsoOnPort: 8443, label: 'Recipes', group: 'cool', pattern: '/personal/recipes/*' },
} as const satisfies Record<string, PageRow>;
