import { defineArea } from '../area.ts';
import { climbingPages } from './climbing.pages.ts';

export const climbingRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'climbing.list': 2,
    'climbing.add': 2,
    'climbing.remove': 2,
  },
  pages: climbingPages,
  api: {
    '/api/climbing/get': { procedure: 'climbing.list', output: { guests: 'guests' } },
    '/api/climbing/add': { procedure: 'climbing.add', input: { guest: 'guest' } },
  },
});
