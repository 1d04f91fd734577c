import { defineArea } from '../area.ts';

export const recipesRoutes = defineArea({
  procedures: {
    'recipes.list': 3,
    'recipes.get': 3,
    'recipes.units': 3,
    'recipes.settings': 3,
    'recipes.saveSettings': 3,
    'recipes.create': 3,
    'recipes.update': 3,
    'recipes.delete': 3,
    'recipes.importJsonLd': 3,
    'recipes.exportJsonLd': 3,
  },
  pages: {
    '/personal/recipes': { access: 3, alsoOnPort: 8443, label: 'Recipes', group: 'cool', pattern: '/personal/recipes/*' },
  },
  http: {
    'GET /private/recipes/:file': { access: 3 },
    'POST /private/recipes/images': { access: 3, multipart: true },
  },
  api: {
    '/api/recipes/get_list': { procedure: 'recipes.list' },
    '/api/recipes/get_settings': { procedure: 'recipes.settings' },
    '/api/recipes/get': { procedure: 'recipes.get', input: { recipeId: { field: 'recipe_id', as: 'int' } } },
    '/api/recipes/get_unit_dict': { procedure: 'recipes.units' },
  },
});
