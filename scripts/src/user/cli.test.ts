import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliRunner, migratedDataDir } from '../testing/run-cli.ts';

const dataDir = migratedDataDir('site-user-cli-');

const user = cliRunner(path.join(import.meta.dirname, 'cli.ts'), { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' });

describe('npm run user', () => {
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('lists accounts, sets a level, and explains mistakes', async () => {
    expect(await user('list')).toMatchObject({ code: 0, out: expect.stringContaining('No accounts yet') });
    const missing = await user('set-level', 'ghost', '2');
    expect(missing).toMatchObject({ code: 1, out: expect.stringContaining('No user has that name') });
    expect((await user('set-level', 'ghost', '7')).code).toBe(2);
    expect((await user('frobnicate')).code).toBe(2);

    const { createDb } = await import('@site/server/db/database');
    const { insertUser } = await import('@site/server/identity/users.repository');
    const handle = await createDb({ kind: 'pglite', dataDir });
    await insertUser(handle.db, { name: 'Friend', passwordHash: 'x', level: 0 });
    await handle.close();

    expect(await user('set-level', 'friend', '2')).toMatchObject({ code: 0, out: expect.stringContaining('Friend is now level 2') });
    expect((await user('list')).out).toMatch(/2\s+Family\s+Friend/);
  }, 120_000);

  it('says exactly what to do while a server holds the embedded database', async () => {
    const { createDb } = await import('@site/server/db/database');
    const handle = await createDb({ kind: 'pglite', dataDir });
    try {
      const busy = await user('list');
      expect(busy.code).toBe(1);
      expect(busy.out).toContain(`another process (${process.pid}`);
      expect(busy.out).toContain('Admin page (/admin)');
      expect(busy.out).toContain('stop the server');
    } finally {
      await handle.close();
    }
  }, 120_000);
});
