import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { requestBackup } from '../src/db/control.ts';
import { createDb } from '../src/db/database.ts';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = (dataDir: string) => ({ ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' });

/** `npm run backup|restore -- FILE`, as the scripts workspace runs it. */
const cli = (command: 'backup' | 'restore', file: string, dataDir: string) =>
  spawnSync(process.execPath, ['--import', tsx, path.join(repoRoot, 'scripts/src/backup/cli.ts'), command, file], {
    cwd: os.tmpdir(),
    env: env(dataDir),
    encoding: 'utf8',
  });

/**
 * A backup of the embedded database (PGlite) while the server runs on it: the CLI finds the folder
 * locked by the live server and asks it over DATA_DIR/control.sock to write the archive; the archive
 * restores (offline) into a fresh folder with the row written through the running site.
 */
describe('backup of a running server on PGlite (control socket)', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-live-'));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  it('writes the archive through the running server, and it restores with the row', async () => {
    const dataDir = tmp();
    const server = spawn(process.execPath, ['--import', tsx, path.join(repoRoot, 'server/src/index.ts')], {
      cwd: repoRoot,
      env: env(dataDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    cleanup.push(async () => {
      if (server.exitCode === null) {
        server.kill('SIGTERM');
        await exited;
      }
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /site: listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1]) resolve(match[1]);
      };
      server.stdout.on('data', onData);
      server.stderr.on('data', onData);
      void exited.then((code) => reject(new Error(`server exited with ${code}:\n${output}`)));
    });

    const socket = path.join(dataDir, 'control.sock');
    const stat = fs.statSync(socket);
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);

    const signup = await fetch(`${url}/api/signup_attempt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signupName: 'LiveRow', signupPass: 'walnut-table-9', signupConfPass: 'walnut-table-9' }),
    });
    expect(signup.status).toBe(200);
    fs.mkdirSync(path.join(dataDir, 'media'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'media', 'note.txt'), 'kept');

    const archive = path.join(tmp(), 'nested', 'live.tar.gz');
    const backup = cli('backup', archive, dataDir);
    expect(backup.stderr).toBe('');
    expect(backup.status).toBe(0);
    expect(backup.stdout).toMatch(/written by the running server/);
    expect(fs.existsSync(archive)).toBe(true);

    // The server still serves after it, and a bad request gets a readable error.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await expect(requestBackup(dataDir, 'relative.tar.gz')).rejects.toThrow(/absolute path/);

    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(fs.existsSync(socket)).toBe(false);

    const fresh = path.join(tmp(), 'data');
    const restore = cli('restore', archive, fresh);
    expect(restore.stderr).toBe('');
    expect(restore.status).toBe(0);
    expect(fs.readFileSync(path.join(fresh, 'media', 'note.txt'), 'utf8')).toBe('kept');
    const handle = await createDb({ kind: 'pglite', dataDir: fresh });
    try {
      const rows = await handle.db.selectFrom('users').select('name').execute();
      expect(rows.map((r) => r.name)).toContain('LiveRow');
    } finally {
      await handle.close();
    }
  }, 240_000);
});
