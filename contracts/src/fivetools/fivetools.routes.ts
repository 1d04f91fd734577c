import { defineArea } from '../area.ts';

export const fivetoolsRoutes = defineArea({
  pages: {
    '/personal/5etools': { access: 1, label: '5eTools', group: 'cool' },
  },
});
