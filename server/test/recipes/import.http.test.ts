import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importMessages } from '@site/contracts';
import { IMPORT_UPLOAD_MAX_BYTES } from '../../src/areas/recipes/recipes.http.ts';
import { insertKitchenUnits } from '../../src/areas/recipes/recipes.migrations.ts';
import { makeZip, tempDir } from '../fivetools/fixture.ts';
import { callerFor, cookieFor, createUser, databases, useTestServer, leftInTemp } from '../helpers.ts';

const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'recipes-import-media-'));
afterAll(() => fs.rmSync(mediaDir, { recursive: true, force: true }));

/** A schema.org Recipe as JSON-LD text. */
const recipeJson = (name: string, ingredients: string[], steps: string[]) =>
  JSON.stringify({ '@context': 'https://schema.org', '@type': 'Recipe', name, recipeIngredient: ingredients, recipeInstructions: steps.map((text) => ({ '@type': 'HowToStep', text })) });

/** A multipart body with one part per file, all in the field `files`. */
function multipart(files: { name: string; data: Buffer }[]) {
  const boundary = '----recipes-import-boundary';
  const parts = files.flatMap(({ name, data }) => [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from('\r\n'),
  ]);
  return { payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const leftInTempHere = () => leftInTemp(mediaDir);

describe.each(databases)('importing files over HTTP (issues 30 and 33) (%s)', (kind) => {
  const s = useTestServer(kind, { MEDIA_DIR: mediaDir });
  beforeEach(() => insertKitchenUnits(s.db));

  const upload = async (files: { name: string; data: Buffer }[]) => {
    const body = multipart(files);
    return s.app.inject({ method: 'POST', url: '/private/recipes/import', payload: body.payload, headers: { ...body.headers, cookie: await cookieFor(s.deps, 3, 'owner') } });
  };

  it("skips a zip's README.txt by name, calls a truncated JSON file not JSON, and leaves no temporary file", async () => {
    const work = tempDir('recipes-import-http-');
    try {
      const whole = recipeJson('Tea', ['1 tea bag', '250 ml water'], ['Boil the water.', 'Pour it on the tea bag.']);
      const zip = makeZip(path.join(work, 'box.zip'), [
        { name: 'box/README.txt', data: Buffer.from('Exported from Mealie.\nOne recipe per file.') },
        { name: 'box/tea.json', data: Buffer.from(whole) },
        { name: 'box/cut.json', data: Buffer.from(whole.slice(0, 60)) },
        { name: 'box/photo.jpg', data: Buffer.from([0xff, 0xd8, 0xff, 0xe0]) },
      ]);
      const res = await upload([
        { name: 'box.zip', data: fs.readFileSync(zip) },
        { name: 'soup.jsonld', data: Buffer.from(recipeJson('Soup', ['1 l stock'], ['Heat the stock.'])) },
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.json().report).toEqual([
        { file: 'box.zip/box/README.txt', ok: false, skipped: true, message: importMessages.skipped },
        { file: 'box.zip/box/tea.json', ok: true, recipe_id: expect.any(Number), title: 'Tea' },
        { file: 'box.zip/box/cut.json', ok: false, message: expect.stringMatching(/^The file is not JSON: /) },
        { file: 'box.zip/box/photo.jpg', ok: false, skipped: true, message: importMessages.skipped },
        { file: 'soup.jsonld', ok: true, recipe_id: expect.any(Number), title: 'Soup' },
      ]);
      expect(leftInTempHere()).toEqual([]);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it('refuses an upload over the limit with a clear message: nothing imported, nothing kept', async () => {
    const big = Buffer.alloc(IMPORT_UPLOAD_MAX_BYTES + 1024, 0x20);
    const res = await upload([
      { name: 'soup.jsonld', data: Buffer.from(recipeJson('Soup', ['1 l stock'], ['Heat the stock.'])) },
      { name: 'huge.json', data: big },
    ]);
    expect([res.statusCode, res.json()]).toEqual([413, { message: importMessages.uploadTooLarge(IMPORT_UPLOAD_MAX_BYTES / 1024 / 1024) }]);
    const api = callerFor(s.deps, await createUser(s.deps, 'reader', 3));
    expect(await api.recipes.list()).toEqual([]);
    expect(leftInTempHere()).toEqual([]);
  });
});

describe.each(databases)('importing a link (issue 30) (%s)', (kind) => {
  const s = useTestServer(kind, { DOWNLOAD_ALLOW_PRIVATE_HOSTS: 'true' });
  beforeEach(() => insertKitchenUnits(s.db));
  let fetched = 0;
  // The page lists the eggs first, though the flour is used first.
  const page = `<html><head><script type="application/ld+json">${recipeJson(
    'Pancakes',
    ['2 eggs', '200 g flour', '1 pinch salt', '300 ml milk'],
    ['Whisk the flour and salt.', 'Beat in the eggs, then the milk.'],
  )}</script></head><body></body></html>`;
  const site = http.createServer((_req, res) => {
    fetched++;
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  beforeAll(() => new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));
  const url = (p: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${p}`;

  it('keeps the ingredients in the order the page lists them', async () => {
    const api = callerFor(s.deps, await createUser(s.deps, 'owner', 3));
    const { recipe_id } = await api.recipes.importUrl({ url: url('/pancakes') });
    const recipe = await api.recipes.get({ recipeId: recipe_id });
    const names = Object.values(recipe.steps).flatMap((step) => step.ingredients.map((i) => i.name));
    expect(names).toEqual(['eggs', 'flour', 'salt', 'milk']);
  });

  it('says a link is already imported (nothing fetched or written), and imports it again as a copy when asked', async () => {
    const api = callerFor(s.deps, await createUser(s.deps, 'owner', 3));
    const first = await api.recipes.importUrl({ url: url('/pancakes') });
    expect(first).toMatchObject({ title: 'Pancakes', alreadyImported: false });
    const before = fetched;
    // The same page, its #fragment aside.
    const again = await api.recipes.importUrl({ url: `${url('/pancakes')}#recipe` });
    expect(again).toEqual({ recipe_id: first.recipe_id, title: 'Pancakes', alreadyImported: true });
    expect(fetched).toBe(before);
    expect(await api.recipes.list()).toHaveLength(1);

    const copy = await api.recipes.importUrl({ url: url('/pancakes'), copy: true });
    expect(copy).toMatchObject({ title: 'Pancakes', alreadyImported: false });
    expect(copy.recipe_id).not.toBe(first.recipe_id);
    expect(await api.recipes.list()).toHaveLength(2);
    // Another page is another recipe.
    expect(await api.recipes.importUrl({ url: url('/other') })).toMatchObject({ alreadyImported: false });
  });
});
