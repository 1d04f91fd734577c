import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Database } from '@site/server/db/database';
import type { ControlCommands } from '@site/server/local-commands/control';
import { cliRunner, migratedDataDir } from '../testing/run-cli.ts';

/** Runs `body` with a new DATA_DIR (its database migrated, as after the site's first start), removed after. */
async function inFreshDataDir(prefix: string, body: (dir: string) => Promise<void>): Promise<void> {
  const dir = migratedDataDir(prefix);
  try {
    await body(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `body` while this process holds `dir`'s embedded database and answers `commands` over its control socket, as the server does. */
async function whileServing(dir: string, commands: (db: Database) => ControlCommands, body: (db: Database) => Promise<void>): Promise<void> {
  const { createDb } = await import('@site/server/db/database');
  const { startControlChannel } = await import('@site/server/local-commands/control');
  const handle = await createDb({ kind: 'pglite', dataDir: dir });
  try {
    const channel = await startControlChannel(commands(handle.db), dir);
    try {
      await body(handle.db);
    } finally {
      await channel.close();
    }
  } finally {
    await handle.close();
  }
}

// Apart from cli.test.ts so that the two files run at once: each test starts the tool several times.
describe('npm run user: setup code and reset links', () => {
  it('prints the setup code: read from the database, or asked of the server that holds it', async () => {
    await inFreshDataDir('site-setup-code-', async (fresh) => {
      const run = cliRunner(path.join(import.meta.dirname, 'cli.ts'), { DATA_DIR: fresh, DATABASE_URL: '', LOG_LEVEL: 'silent' });
      const offline = await run('setup-code');
      const code = /Setup code: ([A-Z2-9]{5}-[A-Z2-9]{5})/.exec(offline.out)?.[1];
      expect([offline.code, code]).toEqual([0, expect.any(String)]);

      // A server holding the embedded database answers over its control socket, with the same code.
      const { setupCode } = await import('@site/server/areas/auth/setup-code');
      const { insertUser } = await import('@site/server/identity/users.repository');
      await whileServing(
        fresh,
        (db) => ({ setupCode: () => setupCode(db) }),
        async (db) => {
          expect((await run('setup-code')).out).toContain(`Setup code: ${code}`);
          await insertUser(db, { name: 'Owner', passwordHash: 'x', level: 3 });
          const after = await run('setup-code');
          expect([after.code, after.out]).toEqual([0, expect.stringContaining('An account exists already')]);
        },
      );
    });
  }, 180_000);

  it('prints a reset link: made here, or by the server that holds the embedded database; one line on a mistake', async () => {
    await inFreshDataDir('site-reset-link-', async (fresh) => {
      const env = { DATA_DIR: fresh, DATABASE_URL: '', LOG_LEVEL: 'silent', PUBLIC_URL: 'https://home.example.org' };
      const run = cliRunner(path.join(import.meta.dirname, 'cli.ts'), env);
      const { createDb } = await import('@site/server/db/database');
      const { migrateToLatest } = await import('@site/server/migrations');
      const { insertUser } = await import('@site/server/identity/users.repository');
      const { accountCommand } = await import('@site/server/areas/auth/commands');
      const { createDeps } = await import('@site/server/deps');
      const { loadConfig } = await import('@site/server/config');
      const link = /^https:\/\/home\.example\.org\/reset-password#[A-Za-z0-9_-]{43}$/;
      const handle = await createDb({ kind: 'pglite', dataDir: fresh });
      await migrateToLatest(handle.db);
      await insertUser(handle.db, { name: 'Mia', passwordHash: 'x', level: 1 });
      await handle.close();
      const offline = await run('reset-link', 'mia');
      expect([offline.code, offline.out.trim().split('\n').at(-1)]).toEqual([0, expect.stringMatching(link)]);
      const missing = await run('reset-link', 'ghost');
      expect([missing.code, missing.out.trim()]).toEqual([1, 'No user has that name']);

      // While a server holds the database, it makes the link itself.
      await whileServing(
        fresh,
        (db) => {
          const deps = createDeps(loadConfig({ ...env, ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' }), db);
          return { account: (command, args) => accountCommand(deps, command, args) };
        },
        async (db) => {
          const online = await run('reset-link', 'Mia');
          expect([online.code, online.out.trim().split('\n').at(-1)]).toEqual([0, expect.stringMatching(link)]);
          // The link made here before is kept, marked replaced (it then says so); the server's is the live one.
          const rows = await db.selectFrom('auth_reset_links').select(['used_at', 'replaced_at']).orderBy('created_at').execute();
          expect(rows).toEqual([
            { used_at: null, replaced_at: expect.anything() as unknown },
            { used_at: null, replaced_at: null },
          ]);
          const wrong = await run('reset-link', 'ghost');
          expect([wrong.code, wrong.out.trim()]).toEqual([1, 'No user has that name']);
        },
      );
    });
  }, 180_000);
});
