import { defineArea } from '../area.ts';

export const recipesRoutes = defineArea({
  pages: {
    '/personal/recipes': { access: 3, alsoOnPort: 8443, label: 'Recipes', group: 'cool', pattern: '/personal/recipes/*' },
  },
});
