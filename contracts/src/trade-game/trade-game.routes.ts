import { defineArea, type PortRule } from '../area.ts';

/**
 * The page is the admins', and every member's when the site is served on port 8443 (site.md: shown
 * for level 3+ or on port 8443). Its calls follow the page's rule, from the same row, as recipes do:
 * a friend on the usual port cannot play through /trpc or /api what the page does not offer them.
 */
const page: PortRule = { access: 3, alsoOnPort: 8443 };

export const tradeGameRoutes = defineArea({
  procedures: {
    'tradeGame.islands': page,
    'tradeGame.resources': page,
    'tradeGame.island': page,
    'tradeGame.trade': page,
    'tradeGame.techs': page,
    'tradeGame.buyTech': page,
    'tradeGame.offers': page,
    'tradeGame.makeOffer': page,
    'tradeGame.acceptOffer': page,
    'tradeGame.withdrawOffer': page,
    'tradeGame.reset': page,
  },
  pages: {
    '/personal/trade-game': { ...page, label: 'Trade Game', group: 'cool' },
  },
  api: {
    '/api/trade_game/get_islands': { procedure: 'tradeGame.islands' },
    '/api/trade_game/get_resources': { procedure: 'tradeGame.resources' },
    '/api/trade_game/get_island_data': { procedure: 'tradeGame.island', input: { island: 'island' } },
    '/api/trade_game/reset_player': { procedure: 'tradeGame.reset' },
  },
});
