import { defineArea } from '../area.ts';

export const financeRoutes = defineArea({
  pages: {
    '/admin/finances': { access: 3, label: 'Finance', group: 'admin' },
  },
});
