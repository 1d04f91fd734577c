import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { displayIngredient, KITCHEN_UNITS, recipeInput, type RecipeData } from '@site/contracts';
import { importMany, importUrl } from '../../src/areas/recipes/recipes.import.ts';
import { insertKitchenUnits } from '../../src/areas/recipes/recipes.migrations.ts';
import { parseJsonLd, readRecipe } from '../../src/areas/recipes/recipes.read.ts';
import { cliActor } from '../../src/identity/session-user.ts';
import { makeZip, tempDir } from '../fivetools/fixture.ts';
import { callerFor, createUser, databases, useTestServer } from '../helpers.ts';

const fixtureDir = path.join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => fs.readFileSync(path.join(fixtureDir, name), 'utf8');

/** A fixture read as the server reads it, checked against the save schema (so it would be saved). */
function read(name: string): RecipeData {
  const result = readRecipe(fixture(name), KITCHEN_UNITS);
  if (!result.ok) throw new Error(`${name}: ${result.message}`);
  return recipeInput.parse(result.recipe);
}

const ingredients = (recipe: RecipeData) => recipe.steps.flatMap((s) => s.ingredients);
const amounts = (recipe: RecipeData) => ingredients(recipe).map((i) => [i.quantity, i.quantity_max, i.unit_abbreviation, i.name]);
/** Every text a page shows of a recipe. */
const allText = (recipe: RecipeData) =>
  [recipe.title, recipe.author, recipe.foreword, ...recipe.steps.flatMap((s) => [s.section, s.instructions, ...s.ingredients.flatMap((i) => [i.name, i.note])])].join('\n');

describe('reading real pages (issue 21 points 5 and 6)', () => {
  it('reads a WordPress Yoast @graph with a WPRM recipe: author by @id, sections as headings, entities and tags out, yields and times', () => {
    const recipe = read('yoast-wprm.html');
    expect(recipe.title).toBe('Grandma’s Lemon Drizzle Cake');
    expect(recipe.author).toBe('Maggie Hart');
    expect(recipe.foreword).toBe('A tangy, moist loaf cake – bake at 350°F and sauté nothing at all.\nKeeps for 3 days.');
    expect([recipe.servings, recipe.servings_max]).toEqual([8, null]);
    expect([recipe.prep_minutes, recipe.cook_minutes, recipe.total_minutes]).toEqual([15, 45, 60]);
    expect(recipe.steps.map((s) => [s.section, s.instructions.slice(0, 20)])).toEqual([
      ['Cake', 'Heat the oven to 180'],
      ['', 'Beat together the bu'],
      ['', 'Sift in the flour an'],
      ['Drizzle', 'Mix the lemon juice '],
    ]);
    expect(recipe.steps[0]?.instructions).toBe('Heat the oven to 180°C/160°C fan/gas 4. Line a 2lb loaf tin.');
    expect(amounts(recipe)).toEqual(
      expect.arrayContaining([
        [225, null, 'g', 'unsalted butter, softened'],
        [1.5, null, 'tsp', 'baking powder'],
        [4, null, null, 'eggs'],
      ]),
    );
  });

  it('reads a page whose JSON-LD sits in //<![CDATA[ with trailing commas and a semicolon; 1-1/2 pounds is 1.5 lb, 4 or 5 sprigs a range', () => {
    const recipe = read('cdata-trailing.html');
    expect(recipe.title).toBe('Weeknight Chili con Carne');
    expect(recipe.author).toBe('Rosa Delgado');
    expect(recipe.servings).toBe(6);
    expect(recipe.cook_minutes).toBe(90);
    expect(amounts(recipe)).toEqual(
      expect.arrayContaining([
        [1.5, null, 'lb', 'ground beef'],
        [2, null, 'tbsp', 'chili powder'],
        [4, 5, 'sprig', 'fresh thyme'],
        [1, null, null, '(15 ounce) can kidney beans, drained'],
      ]),
    );
  });

  it('reads raw line breaks and tabs inside strings; one block of instructions is split at its lines; 2 - 2 1/2 dl and 1⁄4 tsp keep amount, unit and name', () => {
    expect(() => JSON.parse(fixture('raw-newlines.jsonld'))).toThrow();
    const recipe = read('raw-newlines.jsonld');
    expect(recipe.foreword).toBe('Swedish cinnamon buns.\nSoft and fragrant.');
    expect(recipe.servings).toBe(24);
    expect(recipe.steps.map((s) => s.instructions)).toEqual([
      'Warm the milk to 37°C and dissolve the yeast.',
      'Add sugar, salt and flour; knead 10 minutes.',
      'Roll out, fill and bake at 225°C for 8 minutes.',
    ]);
    expect(amounts(recipe)).toEqual(
      expect.arrayContaining([
        [2, 2.5, 'dl', 'milk'],
        [25, null, 'g', 'fresh yeast'],
        [0.25, null, 'tsp', 'salt'],
        [0.5, null, 'dl', 'sugar'],
      ]),
    );
  });

  it('reads an AllRecipes-like top-level array with a Recipe that is also a NewsArticle, and vulgar fractions', () => {
    const recipe = read('allrecipes-array.jsonld');
    expect(recipe.title).toBe('Best Banana Bread');
    expect(recipe.servings).toBe(1);
    expect(recipe.steps).toHaveLength(3);
    expect(amounts(recipe)).toEqual(
      expect.arrayContaining([
        [0.25, null, 'tsp', 'salt'],
        [0.75, null, 'cup', 'brown sugar'],
        [7 / 3, null, 'cup', 'mashed overripe bananas'],
      ]),
    );
  });

  it('finds the Recipe inside an ItemList, splits numbered sentences into steps, reads a QuantitativeValue yield and PT0.5H', () => {
    const recipe = read('itemlist-numbered.jsonld');
    expect(recipe.title).toBe('Blueberry Muffins');
    expect(recipe.servings).toBe(12);
    expect(recipe.total_minutes).toBe(30);
    expect(recipe.steps.map((s) => s.instructions)).toEqual([
      'Heat the oven to 200°C.',
      'Mix the flour and sugar.',
      'Fold in the blueberries and spoon into 12 cases.',
      'Bake for 20 minutes.',
    ]);
  });

  it('finds the Recipe as a WebPage mainEntity (BBC-like), with instructions in nested arrays and HTML paragraphs', () => {
    const recipe = read('bbc-nested.html');
    expect(recipe.title).toBe('Easy pancakes');
    expect(recipe.servings).toBe(12);
    expect(recipe.steps.map((s) => s.instructions.slice(0, 12))).toEqual(['Put 100g pla', 'Set aside fo', 'Cook for 1 m']);
    expect(amounts(recipe)).toEqual(expect.arrayContaining([[100, null, 'g', 'plain flour'], [300, null, 'ml', 'milk']]));
  });

  it('reads Tasty Recipes: entities encoded twice, the fraction slash, tags in ingredient lines, and an 8-10 servings range', () => {
    const recipe = read('tasty-recipes.html');
    expect(recipe.title).toBe('Mom’s Apple Crisp');
    expect(recipe.foreword).toBe('Warm apple crisp with a buttery oat topping. Serve at 75°F or warmer.');
    expect([recipe.servings, recipe.servings_max]).toEqual([8, 10]);
    expect(recipe.steps[0]?.instructions).toBe('Preheat oven to 350°F. Butter an 8×8 inch baking dish.');
    expect(amounts(recipe)).toEqual(
      expect.arrayContaining([
        [0.25, null, 'cup', 'granulated sugar'],
        [1.5, null, 'tsp', 'ground cinnamon'],
      ]),
    );
  });

  it('keeps an ingredient line longer than a name may be: cut at a word, the rest in its note', () => {
    const recipe = read('long-ingredient.jsonld');
    const [herbs] = ingredients(recipe);
    expect(herbs?.name.length).toBeLessThanOrEqual(200);
    expect(herbs?.note).toMatch(/plus more to serve$/);
    expect(`${herbs?.name} ${herbs?.note}`).toBe(JSON.parse(fixture('long-ingredient.jsonld')).recipeIngredient[0].replace(/^1 cup /, ''));
    expect([herbs?.quantity, herbs?.unit_abbreviation]).toEqual([1, 'cup']);
  });

  it('shows no HTML entity or tag in any field of any fixture, and no fraction on a metric line', () => {
    const recipes = fs
      .readdirSync(fixtureDir)
      .filter((f) => !['no-name.jsonld', 'not-a-recipe.html'].includes(f))
      .map(read);
    expect(recipes).toHaveLength(8);
    for (const recipe of recipes) {
      expect(allText(recipe)).not.toMatch(/&[a-z]+;|&#\d+;|&#x[0-9a-f]+;|<\/?[a-z][^>]*>/i);
      for (const ingredient of ingredients(recipe)) {
        for (const system of ['as-written', 'metric'] as const) {
          const shown = displayIngredient(ingredient, KITCHEN_UNITS, { system, improperFractions: false, decimals: false });
          if (KITCHEN_UNITS[shown.unit as keyof typeof KITCHEN_UNITS]?.system === 'metric') expect(shown.quantity).not.toContain('/');
        }
      }
    }
  });

  it.each([
    ['comments', '/* schema */ {"a": 1, // generated\n "b": 2}', { a: 1, b: 2 }],
    ['an unescaped quote', '{"name": "A 9" pan"}', { name: 'A 9" pan' }],
    ["\\' escapes", '{"name": "Mom\\\'s pie"}', { name: "Mom's pie" }],
    ['two documents in one block', '{"a": 1}\n{"b": 2}', [{ a: 1 }, { b: 2 }]],
    ['an HTML comment wrapper', '<!--\n{"a": 1}\n-->', { a: 1 }],
    ['a byte-order mark and semicolons', '\uFEFF{"a": [1, 2,],};;', { a: [1, 2] }],
  ])('reads JSON-LD with %s', (_quirk, text, value) => {
    expect(parseJsonLd(text)).toEqual({ ok: true, value });
  });

  it('does not make JSON of text that never was', () => {
    expect(parseJsonLd('Pancakes: flour, milk, eggs.')).toMatchObject({ ok: false, message: expect.stringMatching(/^The file is not JSON: /) });
  });

  it.each([
    ['no-name.jsonld', 'The recipe has no name'],
    ['not-a-recipe.html', 'The file holds no schema.org Recipe (no object with "@type": "Recipe")'],
  ])('still refuses %s with a readable message', (name, message) => {
    expect(readRecipe(fixture(name), KITCHEN_UNITS)).toMatchObject({ ok: false, message });
  });
});

/** A recipe site on 127.0.0.1: pages by path, a redirect, a gzip page, a slow page and a large one. */
function recipeSite() {
  const pages: Record<string, (res: http.ServerResponse) => void> = {
    '/lemon-drizzle/': (res) => res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' }).end(fixture('yoast-wprm.html')),
    '/old-link': (res) => res.writeHead(301, { location: '/lemon-drizzle/' }).end(),
    '/loop': (res) => res.writeHead(302, { location: '/loop' }).end(),
    '/gzip': (res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(zlib.gzipSync(fixture('tasty-recipes.html'))),
    '/about': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end(fixture('not-a-recipe.html')),
    '/gone': (res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>'),
    '/picture.jpg': (res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(Buffer.alloc(100)),
    '/huge': (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      for (let i = 0; i < 64; i++) res.write('x'.repeat(64 * 1024));
      res.end();
    },
    '/slow': (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html>'); // and never ends
    },
  };
  const server = http.createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', 'http://x').pathname];
    if (page) page(res);
    else if (req.url?.startsWith('/to-private')) res.writeHead(302, { location: `http://127.0.0.2:${port()}/lemon-drizzle/` }).end();
    else res.writeHead(404).end();
  });
  const port = () => (server.address() as AddressInfo).port;
  return { server, port, url: (p: string) => `http://127.0.0.1:${port()}${p}` };
}

describe.each(databases)('importing from a link and many at once (%s)', (kind) => {
  const site = recipeSite();
  beforeAll(() => new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => {
    site.server.closeAllConnections();
    return new Promise<void>((resolve) => site.server.close(() => resolve()));
  });

  describe('with private hosts allowed (DOWNLOAD_ALLOW_PRIVATE_HOSTS=true)', () => {
    const s = useTestServer(kind, { DOWNLOAD_ALLOW_PRIVATE_HOSTS: 'true' });
    beforeEach(() => insertKitchenUnits(s.db));

    it('imports a recipe page by its link (through a redirect, and gzip), and says when a page has no recipe', async () => {
      const api = callerFor(s.deps, await createUser(s.deps, 'owner', 3));
      const { recipe_id, title } = await api.recipes.importUrl({ url: site.url('/old-link') });
      expect(title).toBe('Grandma’s Lemon Drizzle Cake');
      const saved = await api.recipes.get({ recipeId: recipe_id });
      expect(saved).toMatchObject({ servings: 8, prep_minutes: 15, cook_minutes: 45, total_minutes: 60 });
      expect(saved.steps['4']?.section).toBe('Drizzle');
      expect((await api.recipes.importUrl({ url: site.url('/gzip') })).title).toBe('Mom’s Apple Crisp');
      const refusal = (url: string) => api.recipes.importUrl({ url }).then(() => 'imported', (e: Error) => e.message);
      expect(await refusal(site.url('/about'))).toBe('That page has no recipe this site can read (no schema.org Recipe in its JSON-LD)');
      expect(await refusal(site.url('/gone'))).toBe('The page answered with HTTP 404: check the link');
      expect(await refusal(site.url('/picture.jpg'))).toBe('That link is not a web page or a JSON-LD file');
      expect(await refusal(site.url('/loop'))).toBe('The link redirects too many times');
      expect(await refusal('ftp://example.org/x')).toBe('Only http:// and https:// links can be imported');
      expect(await refusal('recipes please')).toBe('That is not a link: paste the address of a recipe page, starting with https://');
      expect((await api.recipes.list()).map((r) => r.title).sort()).toEqual(['Grandma’s Lemon Drizzle Cake', 'Mom’s Apple Crisp']);
    });

    it('stops a page that is too large or too slow', async () => {
      await expect(importUrl(s.deps, cliActor, site.url('/huge'), { limits: { maxBytes: 1024 * 1024 } })).rejects.toThrow('The page is larger than the 1 MB this server reads');
      await expect(importUrl(s.deps, cliActor, site.url('/slow'), { limits: { timeoutMs: 300 } })).rejects.toThrow('The page did not answer within 1 second');
    });

    it('imports several files and a zip of them, carrying on past failures, with a report per file', async () => {
      const work = tempDir('recipes-import-');
      try {
        const zip = fs.readFileSync(
          makeZip(path.join(work, 'box.zip'), [
            { name: 'box/raw-newlines.jsonld', data: Buffer.from(fixture('raw-newlines.jsonld')) },
            { name: 'box/no-name.jsonld', data: Buffer.from(fixture('no-name.jsonld')) },
            { name: '__MACOSX/box/._raw-newlines.jsonld', data: Buffer.from([0, 5, 22, 7]) },
            { name: 'box/.DS_Store', data: Buffer.from([0, 0, 0, 1]) },
          ]),
        );
        const report = await importMany(s.deps, cliActor, [
          { name: 'allrecipes-array.jsonld', bytes: Buffer.from(fixture('allrecipes-array.jsonld')) },
          { name: 'notes.txt', bytes: Buffer.from('buy eggs') },
          { name: 'box.zip', bytes: zip },
          { name: 'broken.zip', bytes: Buffer.from('PK\u0003\u0004 not really') },
          { name: 'page.html', bytes: Buffer.from(fixture('bbc-nested.html')) },
        ]);
        expect(report).toEqual([
          { file: 'allrecipes-array.jsonld', ok: true, recipe_id: expect.any(Number), title: 'Best Banana Bread' },
          { file: 'notes.txt', ok: false, message: expect.stringMatching(/^The file is not JSON: /) },
          { file: 'box.zip/box/raw-newlines.jsonld', ok: true, recipe_id: expect.any(Number), title: 'Kanelbullar' },
          { file: 'box.zip/box/no-name.jsonld', ok: false, message: 'The recipe has no name' },
          { file: 'broken.zip', ok: false, message: 'The .zip file could not be read: it is damaged or not a zip archive' },
          { file: 'page.html', ok: true, recipe_id: expect.any(Number), title: 'Easy pancakes' },
        ]);
        const api = callerFor(s.deps, await createUser(s.deps, 'owner', 3));
        expect(await api.recipes.list()).toHaveLength(3);
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
    });
  });

  describe('with the address guard on (the default)', () => {
    const s = useTestServer(kind);
    beforeEach(() => insertKitchenUnits(s.db));

    it('refuses loopback, private, link-local and metadata addresses, and a redirect into one, before fetching anything it refuses', async () => {
      const api = callerFor(s.deps, await createUser(s.deps, 'owner', 3));
      const refusal = (url: string) => api.recipes.importUrl({ url }).then(() => 'imported', (e: Error) => e.message);
      const privateHost = 'That link points into a private or local network, which this server does not fetch from';
      for (const url of [site.url('/lemon-drizzle/'), 'http://10.1.2.3/x', 'http://192.168.1.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://[fd00:ec2::254]/']) {
        expect(await refusal(url)).toBe(privateHost);
      }
      // 127.0.0.1 stands for a public address here; the redirect goes to 127.0.0.2, a private one.
      const publicLoopback = { isBlocked: (address: string) => address !== '127.0.0.1' };
      expect((await importUrl(s.deps, cliActor, site.url('/lemon-drizzle/'), { policy: publicLoopback })).title).toBe('Grandma’s Lemon Drizzle Cake');
      await expect(importUrl(s.deps, cliActor, site.url('/to-private'), { policy: publicLoopback })).rejects.toThrow(privateHost);
      expect(await api.recipes.list()).toHaveLength(1);
    });
  });
});
