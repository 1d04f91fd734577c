import { defineArea } from '../area.ts';

export const climbingRoutes = defineArea({
  pages: {
    '/personal/climbing-passes': { access: 2, label: 'Climb Passes', group: 'cool' },
  },
});
