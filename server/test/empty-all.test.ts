import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildApp, createDeps } from '../src/app.ts';
import { serverAreas } from '../src/areas/index.ts';
import type { Database } from '../src/db/database.ts';
import { everyTable, fillEveryArea, useCleanup } from './backups/site-data.ts';
import { createTestDb, databases, emptyAll, testConfig, truncateAll, type TestDb } from './helpers.ts';

/** Every table's rows, and every sequence's next value, with the paging token (random by design) named. */
async function state(db: Database) {
  const tables = await everyTable(db);
  const token = tables.picture_paging as { token: string }[];
  const sequences = await sql<{ name: string; next: string | null }>`
    select sequencename as name, last_value::text as next from pg_sequences where schemaname = current_schema() order by sequencename`.execute(db);
  return { tables: { ...tables, picture_paging: token.length }, sequences: sequences.rows, token: token.map((t) => t.token) };
}

/**
 * useTestServer empties its database before every test with emptyAll, a faster way to the state
 * `truncate <every table> restart identity cascade` (truncateAll) leaves. Here both run on a site
 * with rows in every table, and what they leave must be the same.
 */
describe.each(databases)('emptyAll leaves what truncateAll leaves (%s)', (kind) => {
  const { cleanup } = useCleanup('site-empty-all-');

  async function filledSite(): Promise<TestDb> {
    const handle = await createTestDb(kind);
    cleanup.push(() => handle.close());
    const root = path.join(os.tmpdir(), `site-empty-all-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const deps = createDeps(testConfig({ DATA_DIR: path.join(root, 'data'), MEDIA_DIR: path.join(root, 'media') }), handle.db);
    const app = await buildApp(deps, { areas: { ...serverAreas, pictures: { ...serverAreas.pictures, worker: undefined } } });
    cleanup.push(() => app.close());
    await fillEveryArea(deps, app);
    return handle;
  }

  it('empties every table, restarts every sequence and replaces the paging token, as TRUNCATE does', async () => {
    const [fast, slow] = [await filledSite(), await filledSite()];
    const filled = await state(fast.db);
    const emptyTables = Object.entries(filled.tables).filter(([table, rows]) => table !== 'picture_paging' && (rows as unknown as unknown[]).length === 0);
    // The first account's setup code goes once an account exists; the backup runs come with a backup.
    expect(emptyTables.map(([table]) => table), 'tables the fill leaves empty').toEqual(['auth_setup_code', 'backup_runs']);

    await emptyAll(fast.db);
    await truncateAll(slow.db);
    const [after, expected] = [await state(fast.db), await state(slow.db)];
    expect({ ...after, token: after.token.length }).toEqual({ ...expected, token: expected.token.length });
    expect(after.tables.picture_paging).toBe(1);
    expect(after.token).not.toEqual(filled.token);
    expect(after.sequences.every((s) => s.next === null)).toBe(true);

    // And again from empty, and with foreign keys back on: a row that names a missing account is refused.
    await emptyAll(fast.db);
    expect((await state(fast.db)).tables).toEqual(expected.tables);
    await expect(sql`insert into sessions (token_hash, user_id, expires_at, renewed_at) values ('x', 12345, now(), now())`.execute(fast.db)).rejects.toThrow(/foreign key/);
  }, 300_000); // two sites filled through every area, each with two photographs indexed by the real child
});
