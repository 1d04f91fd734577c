import fs from 'node:fs';
import { TRPCError } from '@trpc/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { accessMessages, DEFAULT_RECIPE_SETTINGS, KITCHEN_UNITS, recipeFromJsonLd } from '@site/contracts';
import { insertKitchenUnits, recipesMigrations } from '../../src/areas/recipes/recipes.migrations.ts';
import { callerFor, cookieFor, createUser, databases, postJson, rawRequest, useListeningServer, useTestServer } from '../helpers.ts';
import { pancakes } from './recipes.samples.ts';

const fixture = (name: string) => fs.readFileSync(new URL(`../../../contracts/src/recipes/fixtures/${name}`, import.meta.url), 'utf8');

async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TRPCError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a rejection');
}

describe.each(databases)('recipes (%s)', (kind) => {
  const s = useTestServer(kind);
  const listening = useListeningServer(s);
  const owner = async (name = 'owner') => callerFor(s.deps, await createUser(s.deps, name, 3));
  beforeEach(() => insertKitchenUnits(s.db));

  it('creates a recipe and reads it back with steps keyed by number', async () => {
    const api = await owner();
    const { recipe_id } = await api.recipes.create(pancakes);
    const recipe = await api.recipes.get({ recipeId: recipe_id });
    expect(recipe).toMatchObject({ recipe_id, title: 'Pancakes', author: 'Gran', foreword: 'Sunday mornings.', servings: 4 });
    expect(recipe.uploaded_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const plain = { quantity_max: null, note: '', image: null };
    expect(recipe.steps).toEqual({
      '1': {
        section: '',
        instructions: 'Whisk the flour and the milk.',
        ingredients: [
          { name: 'flour', plural_name: 'flour', quantity: 1.5, unit_abbreviation: 'cup', ...plain },
          { name: 'milk', plural_name: 'milk', quantity: 250, unit_abbreviation: 'ml', ...plain },
        ],
      },
      '2': { section: '', instructions: 'Fry in butter.', ingredients: [{ name: 'egg', plural_name: 'eggs', quantity: 2, unit_abbreviation: null, ...plain }] },
    });
  });

  it('fills an empty plural name with the name, and keeps an empty quantity empty', async () => {
    const api = await owner();
    const { recipe_id } = await api.recipes.create({
      title: 'Soup',
      steps: [{ instructions: 'Season.', ingredients: [{ name: 'salt', quantity: null }] }],
    });
    const recipe = await api.recipes.get({ recipeId: recipe_id });
    expect(recipe.steps['1']?.ingredients).toEqual([{ name: 'salt', plural_name: 'salt', quantity: null, quantity_max: null, note: '', unit_abbreviation: null, image: null }]);
    expect(recipe).toMatchObject({ author: '', foreword: '', servings: null });
  });

  it('lists newest first and searches titles and ingredients, literally', async () => {
    const api = await owner();
    const a = await api.recipes.create(pancakes);
    const b = await api.recipes.create({ title: '100% rye', steps: [{ instructions: 'Bake.', ingredients: [{ name: 'rye flour' }] }] });
    expect((await api.recipes.list()).map((r) => r.recipe_id)).toEqual([b.recipe_id, a.recipe_id]);
    expect((await api.recipes.list({ search: 'PANCAKE' })).map((r) => r.title)).toEqual(['Pancakes']);
    expect((await api.recipes.list({ search: 'eggs' })).map((r) => r.title)).toEqual(['Pancakes']);
    expect((await api.recipes.list({ search: 'flour' })).map((r) => r.title).sort()).toEqual(['100% rye', 'Pancakes']);
    expect((await api.recipes.list({ search: '0%' })).map((r) => r.title)).toEqual(['100% rye']);
    expect(await api.recipes.list({ search: '_' })).toEqual([]);
  });

  it('edits a recipe, replacing its steps, and deletes it', async () => {
    const api = await owner();
    const { recipe_id } = await api.recipes.create(pancakes);
    const edited = await api.recipes.update({ recipeId: recipe_id, recipe: { ...pancakes, title: 'Crêpes', steps: [{ instructions: 'Thin batter.' }] } });
    expect(edited.title).toBe('Crêpes');
    expect(edited.steps).toEqual({ '1': { section: '', instructions: 'Thin batter.', ingredients: [] } });
    await api.recipes.delete({ recipeId: recipe_id });
    expect(await rejection(api.recipes.get({ recipeId: recipe_id }))).toEqual({ code: 'NOT_FOUND', message: 'No recipe has that id' });
    expect(await rejection(api.recipes.delete({ recipeId: recipe_id }))).toEqual({ code: 'NOT_FOUND', message: 'No recipe has that id' });
    expect(await rejection(api.recipes.update({ recipeId: recipe_id, recipe: pancakes }))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses bad recipes with a readable message and writes nothing', async () => {
    const api = await owner();
    const cases: [unknown, string][] = [
      [{ ...pancakes, title: '  ' }, 'Title may not be empty'],
      [{ ...pancakes, steps: [] }, 'A recipe needs at least one step'],
      [{ ...pancakes, steps: [{ instructions: 'x', ingredients: [{ name: 'a', quantity: -1 }] }] }, 'Quantity may not be negative'],
      [{ ...pancakes, title: 'a\u0000b' }, 'Title may not contain control characters'],
      [{ ...pancakes, servings: 0 }, 'Servings must be at least 1'],
      [{ ...pancakes, steps: [{ instructions: 'x', ingredients: [{ name: 'a', quantity: 1, unit_abbreviation: 'bucket' }] }] }, 'Unknown unit "bucket"'],
      [{ ...pancakes, steps: [{ instructions: 'x', ingredients: [{ name: 'a', image: '../../etc/passwd' }] }] }, 'Image must be a file uploaded to the recipes'],
    ];
    for (const [input, message] of cases) {
      const refused = await rejection(api.recipes.create(input as never));
      expect(refused.code).toBe('BAD_REQUEST');
      expect(refused.message).toContain(message);
    }
    expect(await api.recipes.list()).toEqual([]);
  });

  it('ships the kitchen unit dictionary', async () => {
    const api = await owner();
    const units = await api.recipes.units();
    expect(units).toEqual(KITCHEN_UNITS);
  });

  it('keeps recipe settings per member, with the spec defaults', async () => {
    const alice = await owner('alice');
    const bob = await owner('bob');
    expect(await alice.recipes.settings()).toEqual(DEFAULT_RECIPE_SETTINGS);
    expect(DEFAULT_RECIPE_SETTINGS).toMatchObject({ defaultView: 'page', ingredientView: 'tiles-3' });
    const mine = { defaultView: 'steps', ingredientView: 'list-fit', measurementSystem: 'metric', improperFractions: true, decimals: true } as const;
    expect(await alice.recipes.saveSettings(mine)).toEqual(mine);
    expect(await alice.recipes.settings()).toEqual(mine);
    expect(await bob.recipes.settings()).toEqual(DEFAULT_RECIPE_SETTINGS);
    const refused = await rejection(alice.recipes.saveSettings({ ...mine, defaultView: 'poster' as never }));
    expect(refused.code).toBe('BAD_REQUEST');
    expect(refused.message).toContain('Default View must be one of: page, steps, printer');
    expect(await alice.recipes.settings()).toEqual(mine);
  });

  it('imports a real schema.org JSON-LD recipe, and exports it back', async () => {
    const api = await owner();
    const imported = await api.recipes.importJsonLd({ json: fixture('pancakes.jsonld') });
    expect(imported.title).toBe('Fluffy Pancakes');
    const recipe = await api.recipes.get({ recipeId: imported.recipe_id });
    expect(Object.keys(recipe.steps)).toHaveLength(4);
    expect(recipe.steps['1']?.ingredients[0]).toMatchObject({ name: 'all-purpose flour', quantity: 1.5, unit_abbreviation: 'cup' });
    const exported = await api.recipes.exportJsonLd({ recipeId: imported.recipe_id });
    expect(exported).toMatchObject({ '@type': 'Recipe', name: 'Fluffy Pancakes', author: { name: 'Jane Doe' }, recipeYield: '4 servings' });
    const again = recipeFromJsonLd(JSON.stringify(exported), KITCHEN_UNITS);
    expect(again.ok && again.recipe.steps.length).toBe(4);
  });

  it('says what is wrong with a file that does not import', async () => {
    const api = await owner();
    // Cut short: what is wrong is the file, which is not repaired into half a recipe (issue 30).
    expect(await rejection(api.recipes.importJsonLd({ json: fixture('broken-truncated.jsonld') }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^The file is not JSON: /),
    });
    expect(await rejection(api.recipes.importJsonLd({ json: 'Pancakes: flour, milk, eggs.' }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^The file is not JSON: /),
    });
    expect(await rejection(api.recipes.importJsonLd({ json: fixture('broken-no-instructions.jsonld') }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^The recipe has no recipeInstructions/),
    });
    expect(await rejection(api.recipes.importJsonLd({ json: '{"@type": "WebPage", "name": "About"}' }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The file holds no schema.org Recipe (no object with "@type": "Recipe")',
    });
    expect(await rejection(api.recipes.importJsonLd({ json: '{"@type": "Recipe", "recipeInstructions": "Stir."}' }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The recipe has no name',
    });
    expect(await api.recipes.list()).toEqual([]);
  });

  it('cleans the HTML left in recipes imported before entities were decoded, and nothing else', async () => {
    const api = await owner();
    const { recipe_id } = await api.recipes.create({
      title: 'Cr&ecirc;pes &amp; jam',
      foreword: '<p>Bake at 75&deg;F.</p><p>Saut&eacute; nothing.</p>',
      steps: [
        { instructions: 'Mix.\n\nRest 1 hour & more.', ingredients: [{ name: '<b>flour</b>, sifted &amp;amp; salted', quantity: 1 }] },
        { instructions: '<p>Fry &frac12; minute.</p>', ingredients: [] },
      ],
    });
    await recipesMigrations['20261124_recipes_clean_text'].up(s.db as never);
    const recipe = await api.recipes.get({ recipeId: recipe_id });
    expect([recipe.title, recipe.foreword]).toEqual(['Crêpes & jam', 'Bake at 75°F.\nSauté nothing.']);
    expect(recipe.steps['1']?.instructions).toBe('Mix.\n\nRest 1 hour & more.');
    expect(recipe.steps['1']?.ingredients[0]?.name).toBe('flour, sifted & salted');
    expect(recipe.steps['2']?.instructions).toBe('Fry ½ minute.');
  });

  it('answers the documented /api paths to admins only', async () => {
    for (const level of [1, 2] as const) {
      const cookie = await cookieFor(s.deps, level);
      for (const path of ['/api/recipes/get_list', '/api/recipes/get_settings', '/api/recipes/get_unit_dict']) {
        expect((await postJson(s.app, path, undefined, cookie)).statusCode).toBe(403);
      }
    }
    expect((await postJson(s.app, '/api/recipes/get_list')).statusCode).toBe(401);
  });

  it('opens reading to every member when the page is served on port 8443, and writing to admins only', async () => {
    const { recipe_id } = await (await owner()).recipes.create(pancakes);
    const friend = await cookieFor(s.deps, 1);
    const pending = await cookieFor(s.deps, 0, 'pending');
    // 8443 is the real second listener (EXTRA_PORT); a Host header naming 8443 on the usual port opens nothing.
    const call = async (host: string, cookie: string, method: 'GET' | 'POST', url: string, body?: unknown) => {
      const base = host === 'localhost:8443' ? listening.extra : listening.main;
      const headers = { cookie, ...(host === 'localhost:8443' ? {} : { host }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
      const res = await rawRequest(base, method, url, headers, body === undefined ? undefined : JSON.stringify(body));
      return { statusCode: res.status, json: () => JSON.parse(res.body) as unknown };
    };
    const get = `/trpc/recipes.get?input=${encodeURIComponent(JSON.stringify({ recipeId: recipe_id }))}`;

    const list = await call('localhost:8443', friend, 'POST', '/api/recipes/get_list');
    expect(list.statusCode).toBe(200);
    expect((list.json() as { title: string }[]).map((r) => r.title)).toEqual([pancakes.title]);
    const one = await call('localhost:8443', friend, 'GET', get);
    expect(one.statusCode).toBe(200);
    expect((one.json() as { result: { data: { title: string } } }).result.data.title).toBe(pancakes.title);
    expect((await call('localhost:8443', friend, 'POST', '/trpc/recipes.saveSettings', { ...DEFAULT_RECIPE_SETTINGS, defaultView: 'steps' })).statusCode).toBe(200);

    // Writing stays with admins on that port too, and the rule needs a member (not a pending account).
    const create = await call('localhost:8443', friend, 'POST', '/trpc/recipes.create', pancakes);
    expect([create.statusCode, (create.json() as { error: { message: string } }).error.message]).toEqual([403, accessMessages.levelTooLow]);
    expect((await call('localhost:8443', friend, 'POST', '/trpc/recipes.delete', { recipeId: recipe_id })).statusCode).toBe(403);
    expect((await call('localhost:8443', pending, 'POST', '/api/recipes/get_list')).statusCode).toBe(403);
    // On any other port the page is the owner's.
    expect((await call('localhost:8080', friend, 'POST', '/api/recipes/get_list')).statusCode).toBe(403);
    expect((await call('localhost:8443', pending, 'GET', get)).statusCode).toBe(403);
    expect((await call('127.0.0.1:8443', friend, 'POST', '/api/recipes/get_list')).statusCode).toBe(403);
    expect((await call('localhost', friend, 'GET', get)).statusCode).toBe(403);
    expect(await (await owner('owner2')).recipes.list()).toHaveLength(1);
  });
});
