import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp, createDeps } from '../src/app.ts';
import { createDb, DatabaseInUseError, pgliteHolder, processStartTime } from '../src/db/database.ts';
import { migrateToLatest } from '../src/migrations.ts';
import { createTestDb, postJson, sessionCookie, testConfig } from './helpers.ts';

const body = { signupName: 'Owner', signupPass: 'walnut-table-9', signupConfPass: 'walnut-table-9' };

async function run(open: () => Promise<{ db: Parameters<typeof createDeps>[1]; close: () => Promise<void> }>) {
  const first = await open();
  await migrateToLatest(first.db);
  const app1 = await buildApp(createDeps(testConfig(), first.db));
  const cookie = sessionCookie(await postJson(app1, '/api/signup_attempt', body)) ?? '';
  await app1.close();
  await first.close();

  const second = await open();
  await migrateToLatest(second.db);
  const app2 = await buildApp(createDeps(testConfig(), second.db));
  const status = (await postJson(app2, '/api/login_status', undefined, cookie)).json();
  const login = (await postJson(app2, '/api/login_attempt', { loginName: 'Owner', loginPass: 'walnut-table-9' })).json();
  await app2.close();
  await second.close();
  return { status, login };
}

describe('a restart keeps accounts and sessions', () => {
  it('on PGlite under DATA_DIR', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-restart-'));
    try {
      const result = await run(() => createDb({ kind: 'pglite', dataDir }));
      expect(result.status).toEqual({ user: 'Owner', authenticated: 3, authentication: 3 });
      expect(result.login).toEqual({ user: 'Owner', authenticated: 3, authentication: 3 });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('refuses a second process on the same PGlite folder while the first lives', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-lock-'));
    fs.writeFileSync(path.join(dataDir, 'site.lock'), String(process.ppid));
    await expect(createDb({ kind: 'pglite', dataDir })).rejects.toBeInstanceOf(DatabaseInUseError);
    fs.writeFileSync(path.join(dataDir, 'site.lock'), '999999999');
    const handle = await createDb({ kind: 'pglite', dataDir });
    expect(pgliteHolder(dataDir)).toBeNull();
    await handle.close();
    // A stale lock whose process id now belongs to another process (reused ids, process 1 in containers).
    const live = { pid: process.ppid, started: processStartTime(process.ppid), boot: null };
    fs.writeFileSync(path.join(dataDir, 'site.lock'), JSON.stringify(live));
    expect(pgliteHolder(dataDir)).toBe(process.ppid);
    fs.writeFileSync(path.join(dataDir, 'site.lock'), JSON.stringify({ ...live, started: '1' }));
    expect(pgliteHolder(dataDir)).toBeNull();
    const again = await createDb({ kind: 'pglite', dataDir });
    await again.close();
    expect(fs.existsSync(path.join(dataDir, 'site.lock'))).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 90_000);

  it.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL', async () => {
    const owner = await createTestDb('postgres');
    try {
      const url = owner.url ?? '';
      const result = await run(() => createDb({ kind: 'postgres', url }));
      expect(result.status).toEqual({ user: 'Owner', authenticated: 3, authentication: 3 });
      expect(result.login).toEqual({ user: 'Owner', authenticated: 3, authentication: 3 });
    } finally {
      await owner.close();
    }
  });
});
