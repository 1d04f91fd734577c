import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliRunner } from '../testing/run-cli.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-recipes-cli-'));
const fixtures = path.resolve(import.meta.dirname, '../../../contracts/src/recipes/fixtures');

const recipes = cliRunner(path.join(import.meta.dirname, 'cli.ts'), { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' });

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
