import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_COLORS } from '@site/contracts';
import { createDeps } from '../src/app.ts';
import * as auth from '../src/areas/auth/auth.service.ts';
import * as settings from '../src/areas/settings/settings.service.ts';
import { backupTo, BackupError, restoreFrom, userFiles } from '../src/db/backup.ts';
import type { Database } from '../src/db/database.ts';
import { createTestDb, databases, testConfig, type TestDb } from './helpers.ts';

/** Every table as sorted JSON rows, asked of the database (so a new area's tables are compared too). */
async function everyTable(db: Database): Promise<Record<string, unknown>> {
  const tables = await sql<{ tablename: string }>`
    select tablename from pg_tables where schemaname = current_schema() and tablename not like 'kysely_migration%' order by tablename`.execute(db);
  const out: Record<string, unknown> = {};
  for (const { tablename } of tables.rows) {
    const result = await sql<{ rows: unknown }>`select coalesce(json_agg(t order by t::text), '[]'::json) as rows from ${sql.table(tablename)} t`.execute(db);
    out[tablename] = result.rows[0]?.rows;
  }
  return out;
}

const filesOf = (dir: string) => Object.fromEntries(userFiles(dir).map((f) => [f, fs.readFileSync(path.join(dir, f)).toString('base64')]));

describe.each(databases)('backup and restore (%s)', (kind) => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-backup-test-'));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const db = async () => {
    const handle: TestDb = await createTestDb(kind);
    cleanup.push(() => handle.close());
    return handle;
  };

  it('round-trips a populated site: every table and every file, and ids continue after it', async () => {
    const source = await db();
    const sourceDir = tmp();
    const deps = createDeps(testConfig(), source.db);
    const client = { ip: '10.0.0.1', deviceToken: null };
    const owner = await auth.signup(deps, { name: 'Owner', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' }, client);
    const friend = await auth.signup(deps, { name: 'Jos\u00e9', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' }, client);
    await deps.sessions.create(owner.id);
    await deps.devices.issue(friend.id);
    await settings.saveColors(deps, owner, { ...DEFAULT_COLORS, menuColor: '#123456' });
    await auth.login(deps, { name: 'Owner', password: 'wrong' }, client).catch(() => {});
    fs.mkdirSync(path.join(sourceDir, 'media', 'pictures', 'nested'), { recursive: true });
    fs.writeFileSync(path.join(sourceDir, 'media', 'pictures', 'a.jpg'), randomBytes(200_000));
    fs.writeFileSync(path.join(sourceDir, 'media', 'pictures', 'nested', 'b ü.txt'), 'hello');
    fs.mkdirSync(path.join(sourceDir, 'pglite'));
    fs.writeFileSync(path.join(sourceDir, 'pglite', 'not-a-user-file'), 'x');
    fs.writeFileSync(path.join(sourceDir, 'site.lock'), '{}');

    const archive = path.join(tmp(), 'site.tar.gz');
    const manifest = await backupTo(source.db, sourceDir, archive);
    expect(manifest.tables).toContain('users');

    const target = await db();
    const targetDir = path.join(tmp(), 'data');
    await restoreFrom(target.db, targetDir, archive);

    expect(await everyTable(target.db)).toEqual(await everyTable(source.db));
    expect(filesOf(targetDir)).toEqual(filesOf(sourceDir));
    expect(Object.keys(filesOf(targetDir)).sort()).toEqual(['media/pictures/a.jpg', 'media/pictures/nested/b ü.txt']);

    // The restored site works: a login, and a new account gets the next id.
    const restored = createDeps(testConfig(), target.db);
    expect((await auth.login(restored, { name: 'owner', password: 'walnut-table-9' }, { ip: '10.0.0.2', deviceToken: null })).user.id).toBe(owner.id);
    const third = await auth.signup(restored, { name: 'Third', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' }, client);
    expect(third.id).toBe(friend.id + 1);

    // Restoring again over a site that has data is refused.
    await expect(restoreFrom(target.db, targetDir, archive)).rejects.toBeInstanceOf(BackupError);
  }, 120_000);
});
