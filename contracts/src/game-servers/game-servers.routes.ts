import { defineArea } from '../area.ts';

export const gameServersRoutes = defineArea({
  pages: {
    '/personal/game-servers': { access: 1, label: 'Game Servers', group: 'cool' },
  },
});
