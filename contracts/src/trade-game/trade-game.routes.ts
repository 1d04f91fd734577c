import { defineArea } from '../area.ts';

export const tradeGameRoutes = defineArea({
  pages: {
    '/personal/trade-game': { access: 3, alsoOnPort: 8443, label: 'Trade Game', group: 'cool' },
  },
});
