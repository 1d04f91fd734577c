import { defineArea } from '../area.ts';

export const hubRoutes = defineArea({
  pages: {
    '/personal': { access: 1, label: 'Personal' },
  },
});
