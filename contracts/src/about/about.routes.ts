import { defineArea } from '../area.ts';

export const aboutRoutes = defineArea({
  pages: {
    '/about': { access: 'public', label: 'About' },
  },
});
