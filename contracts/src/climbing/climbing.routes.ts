import { defineArea } from '../area.ts';

export const climbingRoutes = defineArea({
  procedures: {
    'climbing.list': 2,
    'climbing.add': 2,
    'climbing.remove': 2,
  },
  pages: {
    '/personal/climbing-passes': { access: 2, label: 'Climb Passes', group: 'cool' },
  },
  api: {
    '/api/climbing/get': { procedure: 'climbing.list', output: { guests: 'guests' } },
    '/api/climbing/add': { procedure: 'climbing.add', input: { guest: 'guest' } },
  },
});
