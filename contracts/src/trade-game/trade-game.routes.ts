import { defineArea } from '../area.ts';

/**
 * The page is listed for admins, and for every member when the site is served on port 8443. The
 * procedures are open to every member on any port (rather than `{ access: 3, alsoOnPort: 8443 }` as
 * recipes are): each call only reads or changes the caller's own game.
 */
export const tradeGameRoutes = defineArea({
  procedures: {
    'tradeGame.islands': 1,
    'tradeGame.resources': 1,
    'tradeGame.island': 1,
    'tradeGame.trade': 1,
    'tradeGame.techs': 1,
    'tradeGame.buyTech': 1,
    'tradeGame.offers': 1,
    'tradeGame.makeOffer': 1,
    'tradeGame.acceptOffer': 1,
    'tradeGame.withdrawOffer': 1,
    'tradeGame.reset': 1,
  },
  pages: {
    '/personal/trade-game': { access: 3, alsoOnPort: 8443, label: 'Trade Game', group: 'cool' },
  },
  api: {
    '/api/trade_game/get_islands': { procedure: 'tradeGame.islands' },
    '/api/trade_game/get_resources': { procedure: 'tradeGame.resources' },
    '/api/trade_game/get_island_data': { procedure: 'tradeGame.island', input: { island: 'island' } },
    '/api/trade_game/reset_player': { procedure: 'tradeGame.reset' },
  },
});
