import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliRunner } from '../testing/run-cli.ts';

// Apart from cli.test.ts so that the two files run at once: each test starts the tool several times.
describe('npm run user: setup code and reset links', () => {
  it('prints the setup code: read from the database, or asked of the server that holds it', async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'site-setup-code-'));
    const run = cliRunner(path.join(import.meta.dirname, 'cli.ts'), { DATA_DIR: fresh, DATABASE_URL: '', LOG_LEVEL: 'silent' });
    try {
      const offline = await run('setup-code');
      const code = /Setup code: ([A-Z2-9]{5}-[A-Z2-9]{5})/.exec(offline.out)?.[1];
      expect([offline.code, code]).toEqual([0, expect.any(String)]);

      // A server holding the embedded database answers over its control socket, with the same code.
      const { createDb } = await import('@site/server/db/database');
      const { startControlChannel } = await import('@site/server/local-commands/control');
      const { setupCode } = await import('@site/server/areas/auth/setup-code');
      const { insertUser } = await import('@site/server/identity/users.repository');
      const handle = await createDb({ kind: 'pglite', dataDir: fresh });
      const channel = await startControlChannel({ setupCode: () => setupCode(handle.db) }, fresh);
      try {
        expect((await run('setup-code')).out).toContain(`Setup code: ${code}`);
        await insertUser(handle.db, { name: 'Owner', passwordHash: 'x', level: 3 });
        const after = await run('setup-code');
        expect([after.code, after.out]).toEqual([0, expect.stringContaining('An account exists already')]);
      } finally {
        await channel.close();
        await handle.close();
      }
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  }, 180_000);

  it('prints a reset link: made here, or by the server that holds the embedded database; one line on a mistake', async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'site-reset-link-'));
    const env = { DATA_DIR: fresh, DATABASE_URL: '', LOG_LEVEL: 'silent', PUBLIC_URL: 'https://home.example.org' };
    const run = cliRunner(path.join(import.meta.dirname, 'cli.ts'), env);
    const { createDb } = await import('@site/server/db/database');
    const { migrateToLatest } = await import('@site/server/migrations');
    const { insertUser } = await import('@site/server/identity/users.repository');
    const { startControlChannel } = await import('@site/server/local-commands/control');
    const { accountCommand } = await import('@site/server/areas/auth/commands');
    const { createDeps } = await import('@site/server/deps');
    const { loadConfig } = await import('@site/server/config');
    const link = /^https:\/\/home\.example\.org\/reset-password#[A-Za-z0-9_-]{43}$/;
    try {
      let handle = await createDb({ kind: 'pglite', dataDir: fresh });
      await migrateToLatest(handle.db);
      await insertUser(handle.db, { name: 'Mia', passwordHash: 'x', level: 1 });
      await handle.close();
      const offline = await run('reset-link', 'mia');
      expect([offline.code, offline.out.trim().split('\n').at(-1)]).toEqual([0, expect.stringMatching(link)]);
      const missing = await run('reset-link', 'ghost');
      expect([missing.code, missing.out.trim()]).toEqual([1, 'No user has that name']);

      // While a server holds the database, it makes the link itself.
      handle = await createDb({ kind: 'pglite', dataDir: fresh });
      const deps = createDeps(loadConfig({ ...env, ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' }), handle.db);
      const channel = await startControlChannel({ account: (command, args) => accountCommand(deps, command, args) }, fresh);
      try {
        const online = await run('reset-link', 'Mia');
        expect([online.code, online.out.trim().split('\n').at(-1)]).toEqual([0, expect.stringMatching(link)]);
        const rows = await handle.db.selectFrom('auth_reset_links').select('used_at').execute();
        expect(rows).toEqual([{ used_at: null }]);
        const wrong = await run('reset-link', 'ghost');
        expect([wrong.code, wrong.out.trim()]).toEqual([1, 'No user has that name']);
      } finally {
        await channel.close();
        await handle.close();
      }
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  }, 180_000);
});
