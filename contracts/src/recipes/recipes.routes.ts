import { defineArea, type PortRule } from '../area.ts';
import { recipesPages } from './recipes.pages.ts';

/**
 * The page is the owner's (level 3), and every member's when it is served on port 8443 (site.md §6).
 * There members read recipes, their images and exports, and keep their own view settings; writing
 * recipes stays with admins on every port.
 */
const readOn8443: PortRule = { access: 3, alsoOnPort: 8443 };

export const recipesRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'recipes.list': readOn8443,
    'recipes.get': readOn8443,
    'recipes.units': readOn8443,
    'recipes.settings': readOn8443,
    'recipes.saveSettings': readOn8443,
    'recipes.create': 3,
    'recipes.update': 3,
    'recipes.delete': 3,
    'recipes.importJsonLd': 3,
    'recipes.importUrl': 3,
    'recipes.exportJsonLd': readOn8443,
  },
  pages: recipesPages,
  http: {
    'GET /private/recipes/:file': readOn8443,
    'POST /private/recipes/images': { access: 3, multipart: true },
    'POST /private/recipes/import': { access: 3, multipart: true },
  },
  api: {
    '/api/recipes/get_list': { procedure: 'recipes.list' },
    '/api/recipes/get_settings': { procedure: 'recipes.settings' },
    '/api/recipes/get': { procedure: 'recipes.get', input: { recipeId: { field: 'recipe_id', as: 'int' } } },
    '/api/recipes/get_unit_dict': { procedure: 'recipes.units' },
  },
});
