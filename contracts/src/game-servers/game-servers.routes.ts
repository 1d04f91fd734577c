import { defineArea } from '../area.ts';

export const gameServersRoutes = defineArea({
  procedures: {
    'gameServers.list': 1,
    'gameServers.add': 3,
    'gameServers.update': 3,
    'gameServers.remove': 3,
  },
  pages: {
    '/personal/game-servers': { access: 1, label: 'Game Servers', group: 'cool' },
  },
  api: {
    '/api/game-servers/get': { procedure: 'gameServers.list', output: { status: 'status', port: 'port', description: 'description' } },
  },
});
