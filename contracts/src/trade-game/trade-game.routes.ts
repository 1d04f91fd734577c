import { defineArea } from '../area.ts';
import { tradeGamePages, tradeGameRule as page } from './trade-game.pages.ts';

export const tradeGameRoutes = /* @__PURE__ */ defineArea({
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
  pages: tradeGamePages,
  api: {
    '/api/trade_game/get_islands': { procedure: 'tradeGame.islands' },
    '/api/trade_game/get_resources': { procedure: 'tradeGame.resources' },
    '/api/trade_game/get_island_data': { procedure: 'tradeGame.island', input: { island: 'island' } },
    '/api/trade_game/reset_player': { procedure: 'tradeGame.reset' },
  },
});
