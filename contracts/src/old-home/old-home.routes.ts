import { defineArea } from '../area.ts';

export const oldHomeRoutes = defineArea({
  pages: {
    '/admin/old-home': { access: 3, label: 'Old Home', group: 'admin' },
  },
});
