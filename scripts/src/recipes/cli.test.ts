import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliRunner, migratedDataDir } from '../testing/run-cli.ts';

const dataDir = migratedDataDir('site-recipes-cli-');
const fixtures = path.resolve(import.meta.dirname, '../../../contracts/src/recipes/fixtures');

const pages = path.resolve(import.meta.dirname, '../../../server/test/recipes/fixtures');

const recipes = cliRunner(path.join(import.meta.dirname, 'cli.ts'), { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', DOWNLOAD_ALLOW_PRIVATE_HOSTS: 'true' });

describe('npm run recipes', () => {
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('imports a schema.org JSON-LD file, exports it, and names what is wrong in a broken one', async () => {
    expect(await recipes('import', path.join(fixtures, 'pancakes.jsonld'))).toEqual({ code: 0, out: 'Imported "Fluffy Pancakes" as recipe 1\n' });
    const exported = await recipes('export', '1');
    expect(JSON.parse(exported.out)).toMatchObject({ '@type': 'Recipe', name: 'Fluffy Pancakes' });

    expect(await recipes('import', path.join(fixtures, 'broken-no-instructions.jsonld'))).toMatchObject({
      code: 1,
      out: expect.stringContaining('broken-no-instructions.jsonld does not import: The recipe has no recipeInstructions'),
    });
    expect((await recipes('export', 'soup')).code).toBe(2);
  }, 180_000);

  it('imports a recipe page by its link, and several files and a zip at once with a line per file', async () => {
    const site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(fs.readFileSync(path.join(pages, 'tasty-recipes.html'))));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const link = `http://127.0.0.1:${(site.address() as AddressInfo).port}/apple-crisp/`;
      expect(await recipes('import', link)).toEqual({ code: 0, out: expect.stringMatching(/^Imported "Mom’s Apple Crisp" as recipe \d+\n$/) });
      // The same link again says so and adds nothing; --copy imports it again.
      expect(await recipes('import', link)).toEqual({ code: 1, out: expect.stringMatching(/^Already imported as recipe \d+ \("Mom’s Apple Crisp"\): add --copy to import it again\n$/) });
      expect(await recipes('import', '--copy', link)).toEqual({ code: 0, out: expect.stringMatching(/^Imported "Mom’s Apple Crisp" as recipe \d+\n$/) });
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
    const zip = path.join(dataDir, 'two.zip');
    const { makeZip } = await import('../../../server/test/fivetools/fixture.ts');
    makeZip(zip, [
      { name: 'raw-newlines.jsonld', data: fs.readFileSync(path.join(pages, 'raw-newlines.jsonld')) },
      { name: 'no-name.jsonld', data: fs.readFileSync(path.join(pages, 'no-name.jsonld')) },
      { name: 'README.txt', data: Buffer.from('Two recipes.') },
    ]);
    const many = await recipes('import', path.join(pages, 'allrecipes-array.jsonld'), zip, path.join(dataDir, 'missing.jsonld'));
    expect(many.code).toBe(1);
    expect(many.out.split('\n')).toEqual([
      expect.stringMatching(/^imported {2}allrecipes-array.jsonld: "Best Banana Bread" as recipe \d+$/),
      expect.stringMatching(/^imported {2}two.zip\/raw-newlines.jsonld: "Kanelbullar" as recipe \d+$/),
      'refused   two.zip/no-name.jsonld: The recipe has no name',
      'skipped   two.zip/README.txt: not a recipe file (.json, .jsonld or .html)',
      expect.stringMatching(/^refused {3}missing.jsonld: Cannot read .*missing.jsonld: ENOENT$/),
      '2 imported, 2 refused, 1 skipped',
      '',
    ]);
  }, 180_000);

  it('says clearly when a running server holds the embedded database', async () => {
    const { createDb } = await import('@site/server/db/database');
    const handle = await createDb({ kind: 'pglite', dataDir });
    try {
      const held = await recipes('import', path.join(fixtures, 'pancakes.jsonld'));
      expect(held.code).toBe(1);
      expect(held.out).toContain('is open in another process');
      expect(held.out).toContain('The running server holds the embedded database. Stop it and run this again');
    } finally {
      await handle.close();
    }
  }, 120_000);
});
