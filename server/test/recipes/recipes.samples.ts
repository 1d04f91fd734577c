import { expect } from 'vitest';
import type { recipesRoutes } from '@site/contracts';
import { DEFAULT_RECIPE_SETTINGS, KITCHEN_UNITS, type RecipeInput } from '@site/contracts';
import { insertKitchenUnits } from '../../src/areas/recipes/recipes.migrations.ts';
import { callerFor, cookieFor, createUser, postJson } from '../helpers.ts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

export const pancakes: RecipeInput = {
  title: 'Pancakes',
  author: 'Gran',
  foreword: 'Sunday mornings.',
  servings: 4,
  steps: [
    {
      instructions: 'Whisk the flour and the milk.',
      ingredients: [
        { name: 'flour', plural_name: 'flour', quantity: 1.5, unit_abbreviation: 'cup' },
        { name: 'milk', plural_name: 'milk', quantity: 250, unit_abbreviation: 'ml' },
      ],
    },
    { instructions: 'Fry in butter.', ingredients: [{ name: 'egg', plural_name: 'eggs', quantity: 2, unit_abbreviation: null }] },
  ],
};

const minimal: RecipeInput = { title: 'Toast', steps: [{ instructions: 'Toast the bread.' }] };

/** A valid input per procedure: the permission matrix calls each at every level. */
export const recipesSamples = {
  'recipes.list': undefined,
  'recipes.get': { recipeId: 1 },
  'recipes.units': undefined,
  'recipes.settings': undefined,
  'recipes.saveSettings': DEFAULT_RECIPE_SETTINGS,
  'recipes.create': minimal,
  'recipes.update': { recipeId: 1, recipe: minimal },
  'recipes.delete': { recipeId: 1 },
  'recipes.importJsonLd': { json: JSON.stringify({ '@type': 'Recipe', name: 'Tea', recipeInstructions: 'Boil water.' }) },
  // The matrix checks access only: a link the guard refuses at once (no connection is made).
  'recipes.importUrl': { url: 'http://169.254.169.254/latest/meta-data/' },
  'recipes.exportJsonLd': { recipeId: 1 },
} satisfies AreaSamples<typeof recipesRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const recipesParity = {
  async '/api/recipes/get_list'(s) {
    await insertKitchenUnits(s.db);
    const owner = await createUser(s.deps, 'owner', 3);
    const { recipe_id } = await callerFor(s.deps, owner).recipes.create(pancakes);
    const res = await postJson(s.app, '/api/recipes/get_list', undefined, await cookieFor(s.deps, 3));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ recipe_id, title: 'Pancakes', author: 'Gran', uploaded_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }]);
  },
  async '/api/recipes/get_settings'(s) {
    const res = await postJson(s.app, '/api/recipes/get_settings', undefined, await cookieFor(s.deps, 3));
    expect(res.json()).toMatchObject({ defaultView: 'page' });
  },
  async '/api/recipes/get'(s) {
    await insertKitchenUnits(s.db);
    const owner = await createUser(s.deps, 'owner', 3);
    const { recipe_id } = await callerFor(s.deps, owner).recipes.create(pancakes);
    const cookie = await cookieFor(s.deps, 3);
    for (const sent of [recipe_id, String(recipe_id)]) {
      const res = await postJson(s.app, '/api/recipes/get', { recipe_id: sent }, cookie);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ title: 'Pancakes', foreword: 'Sunday mornings.' });
      expect(Object.keys(body.steps)).toEqual(['1', '2']);
      expect(body.steps['1'].instructions).toBe('Whisk the flour and the milk.');
      expect(body.steps['1'].ingredients[0]).toEqual({ name: 'flour', plural_name: 'flour', quantity: 1.5, quantity_max: null, note: '', unit_abbreviation: 'cup', image: null });
    }
    const missing = await postJson(s.app, '/api/recipes/get', { recipe_id: 99999 }, cookie);
    expect([missing.statusCode, missing.json()]).toEqual([404, { message: 'No recipe has that id' }]);
    const bad = await postJson(s.app, '/api/recipes/get', { recipe_id: 'soup' }, cookie);
    expect([bad.statusCode, bad.json()]).toEqual([400, { message: 'recipeId: Recipe id must be a number' }]);
  },
  async '/api/recipes/get_unit_dict'(s) {
    await insertKitchenUnits(s.db);
    const res = await postJson(s.app, '/api/recipes/get_unit_dict', undefined, await cookieFor(s.deps, 3));
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(Object.keys(KITCHEN_UNITS).sort());
    expect(body.cup).toMatchObject({ name: 'cup', plural_name: 'cups', size: 236.5882365 });
    expect(body.ml).toMatchObject({ name: 'millilitre', plural_name: 'millilitres', size: 1 });
  },
} satisfies AreaParity<typeof recipesRoutes>;
