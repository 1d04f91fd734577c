import type { PageRow, PortRule } from '../area.ts';

/**
 * The page is the admins', and every member's when the site is served on port 8443 (site.md: shown
 * for level 3+ or on port 8443). Its calls follow the page's rule, from the same row, as recipes do:
 * a friend on the usual port cannot play through /trpc or /api what the page does not offer them.
 */
export const tradeGameRule: PortRule = { access: 3, alsoOnPort: 8443 };

/** The pages of tradeGameRoutes (trade-game.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const tradeGamePages = {
  '/personal/trade-game': { ...tradeGameRule, label: 'Trade Game', group: 'cool' },
} as const satisfies Record<string, PageRow>;
