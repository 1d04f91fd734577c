import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDeps } from '../../src/app.ts';
import { createDb } from '../../src/db/database.ts';
import { insertUser } from '../../src/identity/users.repository.ts';
import { migrateToLatest } from '../../src/migrations.ts';
import { spawnServer, type SpawnedServer } from '../../src/testing/spawn-server.ts';
import { testConfig } from '../helpers.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** The indexing child of a server process: its child whose command line runs human's wasm build. */
function indexingChildOf(serverPid: number): number | null {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === serverPid && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('human.node-wasm')) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return null;
}

const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));

async function until<T>(what: string, check: () => T | null | false | Promise<T | null | false>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * kill -9 of the real server (the built bundle, its workers on) while it indexes a picture: the
 * picture was claimed and its child was loading the models. The child goes with the server; after a
 * restart (and the lease's end) the picture is read again and its faces are stored once.
 */
describe('people: the server killed mid-indexing', () => {
  it('resumes after a restart and stores no face twice', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'people-kill-'));
    let server: SpawnedServer | null = null;
    try {
      const setup = await createDb({ kind: 'pglite', dataDir });
      await migrateToLatest(setup.db);
      const owner = await insertUser(setup.db, { name: 'owner', passwordHash: 'x', level: 3 });
      const { token } = await createDeps(testConfig({ DATA_DIR: dataDir }), setup.db).sessions.create(owner.id);
      await setup.close();
      const cookie = `sid=${token}`;
      const env = { PEOPLE_INDEXING: 'on', MEDIA_DIR: path.join(dataDir, 'media') };

      server = await spawnServer({ dataDir, env, timeoutMs: 120_000 });
      const form = new FormData();
      form.append('file', new Blob([fs.readFileSync(path.join(FIXTURES, 'group-4.jpg'))], { type: 'image/jpeg' }), 'group-4.jpg');
      form.append('caption', 'The four of us');
      const res = await fetch(`${server.url}/api/pictures/upload`, { method: 'POST', headers: { cookie }, body: form });
      expect(res.status).toBe(200);
      // The child starts after the picture is claimed: kill the server the moment it is there.
      const serverPid = server.process.pid!;
      const child = await until('the indexing child', () => indexingChildOf(serverPid), 60_000);
      const exited = new Promise((resolve) => server!.process.once('exit', resolve));
      process.kill(serverPid, 'SIGKILL');
      await exited;
      server = null;
      // The child does not outlive its server.
      await until('the child to end', () => !alive(child), 30_000);

      const after = await createDb({ kind: 'pglite', dataDir });
      const claimed = await after.db.selectFrom('picture_index').select(['state', 'attempts', 'locked_until']).executeTakeFirstOrThrow();
      expect(claimed.state).toBe('pending');
      expect(claimed.attempts).toBe(1);
      expect(claimed.locked_until!.getTime()).toBeGreaterThan(Date.now());
      expect(await after.db.selectFrom('faces').select('id').execute()).toEqual([]);
      // Time passes: the dead server's lease ends.
      await after.db.updateTable('picture_index').set({ locked_until: new Date(Date.now() - 1000) }).execute();
      await after.close();

      server = await spawnServer({ dataDir, env, timeoutMs: 120_000 });
      const base = server.url;
      await until(
        'the picture indexed',
        async () => {
          const status = (await (await fetch(`${base}/trpc/people.status`, { headers: { cookie } })).json()) as { result: { data: { indexed: number } } };
          return status.result.data.indexed === 1;
        },
        90_000,
      );
      await server.stop();
      server = null;

      const done = await createDb({ kind: 'pglite', dataDir });
      try {
        const faces = await done.db.selectFrom('faces').select('ordinal').orderBy('ordinal').execute();
        expect(faces.map((f) => f.ordinal)).toEqual([0, 1, 2, 3]);
        expect(await done.db.selectFrom('people').select('id').execute()).toHaveLength(4);
        expect(await done.db.selectFrom('picture_index').select(['state', 'attempts']).executeTakeFirstOrThrow()).toEqual({ state: 'done', attempts: 2 });
      } finally {
        await done.close();
      }
    } finally {
      if (server) await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 400_000);
});
