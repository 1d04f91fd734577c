import { defineArea } from '../area.ts';
import { gameServersPages } from './game-servers.pages.ts';

export const gameServersRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'gameServers.list': 1,
    'gameServers.add': 3,
    'gameServers.update': 3,
    'gameServers.remove': 3,
  },
  pages: gameServersPages,
  api: {
    '/api/game-servers/get': { procedure: 'gameServers.list', output: { status: 'status', port: 'port', description: 'description' } },
  },
});
