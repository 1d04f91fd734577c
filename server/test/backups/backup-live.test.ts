import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { createArchive } from '../../src/areas/backups/backups.archive.ts';
import { listSiteFiles } from '../../src/areas/backups/backups.write.ts';
import { requestBackup } from '../../src/local-commands/control.ts';
import { createDb } from '../../src/db/database.ts';
import { cliCommand, serverEntryArgs } from '../../src/testing/cli-fixtures.ts';
import { createTestDb } from '../helpers.ts';
import { useCleanup, writeFiles } from './site-data.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const env = (vars: Record<string, string>) => ({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', ...vars });

/** `npm run backup|restore -- ARGS`, as the scripts workspace runs it. */
const cli = (command: 'backup' | 'restore', args: string[], vars: Record<string, string>) => {
  const run = cliCommand(path.join(repoRoot, 'scripts/src/backup/cli.ts'), [command, ...args], inject('cliBundles'));
  return spawnSync(run.file, run.args, {
    cwd: os.tmpdir(),
    env: env(vars),
    encoding: 'utf8',
    // A command that never ends fails here (status null) instead of holding the test to its limit.
    timeout: 120_000,
  });
};

const { cleanup, tmp } = useCleanup('site-live-');

/**
 * A backup of the embedded database (PGlite) while the server runs on it: the CLI finds the folder
 * locked by the live server and asks it over DATA_DIR/control.sock to write the archive; the archive
 * restores (offline) into a fresh folder with the row written through the running site.
 */
describe('backup of a running server on PGlite (control socket)', () => {
  it('writes verified archives of many files through the running server, again and again, and they restore', async () => {
    const dataDir = tmp();
    const server = spawn(process.execPath, serverEntryArgs(), {
      cwd: repoRoot,
      env: env({ DATA_DIR: dataDir }),
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
    // Five or more files stalled the old archive for good (and kept the server's "running" flag set).
    writeFiles(path.join(dataDir, 'media'), 12, 0);
    fs.writeFileSync(path.join(dataDir, 'media', 'note.txt'), 'kept');

    const folder = tmp();
    for (const name of ['first.tar.gz', 'second.tar.gz']) {
      const backup = cli('backup', [path.join(folder, 'nested', name)], { DATA_DIR: dataDir });
      expect(backup.stderr).toBe('');
      expect(backup.stdout).toMatch(/^Backed up \d+ tables and 14 files to .* verified against its manifest\) \(written by the running server\)\n$/);
      expect(backup.status).toBe(0);
    }
    expect(fs.readdirSync(path.join(folder, 'nested')).sort()).toEqual(['first.tar.gz', 'second.tar.gz']);
    const archive = path.join(folder, 'nested', 'second.tar.gz');

    // Checked with the site's key (DATA_DIR/backup.key, made by the first backup).
    const verify = cli('backup', ['--verify', archive], { DATA_DIR: dataDir });
    expect(verify.stdout).toMatch(/all \d+ entries .* match the manifest/);
    expect(verify.status).toBe(0);

    // The server still serves after it, and a bad request gets a readable error.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await expect(requestBackup(dataDir, 'relative.tar.gz')).rejects.toThrow(/absolute path/);

    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(fs.existsSync(socket)).toBe(false);

    const fresh = path.join(tmp(), 'data');
    const restore = cli('restore', [archive], { DATA_DIR: fresh, BACKUP_KEY_FILE: path.join(dataDir, 'backup.key') });
    expect(restore.stderr).toBe('');
    expect(restore.status).toBe(0);
    expect(restore.stdout).toMatch(/Not in the backup: The 5eTools copy/);
    expect(fs.readFileSync(path.join(fresh, 'media', 'note.txt'), 'utf8')).toBe('kept');
    const handle = await createDb({ kind: 'pglite', dataDir: fresh });
    try {
      const rows = await handle.db.selectFrom('users').select('name').execute();
      expect(rows.map((r) => r.name)).toContain('LiveRow');
      // The media went into this site's store (MEDIA_STORE, local here): the restore records it.
      expect(await handle.db.selectFrom('media_store').select(['active', 'previous']).execute()).toEqual([{ active: 'local', previous: null }]);
      const runs = await handle.db.selectFrom('backup_runs').select(['kind', 'verified']).orderBy('id').execute();
      // The second backup's own row was written before its snapshot: it shows as started there.
      expect(runs).toEqual([
        { kind: 'command', verified: true },
        { kind: 'command', verified: false },
      ]);
    } finally {
      await handle.close();
    }
  }, 240_000);
});

describe('the backup command', () => {
  it('refuses bad arguments and a damaged archive with a message and a non-zero exit', () => {
    const usage = cli('backup', ['--verify'], {});
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/npm run backup -- --verify FILE/);
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'junk.tar.gz'), 'not a backup');
    const verify = cli('backup', ['--verify', path.join(dir, 'junk.tar.gz')], {});
    expect(verify.status).toBe(1);
    expect(verify.stderr).toMatch(/junk\.tar\.gz is damaged or not a \.tar\.gz backup/);
  }, 60_000);

  it('refuses in --verify and restore, in one line, an archive with a name too long, and leaves nothing', async () => {
    const file = path.join(tmp(), 'long.tar.gz');
    const writer = await createArchive(file);
    for (let i = 0; i < 22; i++) await writer.addBuffer(`data/notes/n${i}.txt`, Buffer.from(`note ${i}`));
    await writer.addBuffer(`data/${'y'.repeat(300)}`, Buffer.from('last'));
    const manifest = { format: 2, createdAt: '2026-11-26T00:00:00Z', migrations: [], tables: [], folders: { data: '', media: '' }, leftOut: [] };
    await writer.addBuffer('manifest.json', Buffer.from(JSON.stringify({ ...manifest, entries: writer.entries })));
    await writer.finish();
    const verify = cli('backup', ['--verify', '--unsigned', file], { DATA_DIR: path.join(tmp(), 'data') });
    expect([verify.status, verify.stderr.trim().split('\n')]).toEqual([1, [expect.stringMatching(/name too long for a file system/)]]);
    // The same folder both times: a second run of the command on a PGlite folder it made must end too.
    const data = path.join(tmp(), 'data');
    for (const args of [['--unsigned', file], [file]]) {
      const restore = cli('restore', args, { DATA_DIR: data });
      expect([restore.status, restore.stderr.trim().split('\n')]).toEqual([1, [expect.stringMatching(/name too long|not signed/)]]);
      expect(await listSiteFiles(data)).toEqual([]);
    }
  }, 300_000);
});

/**
 * On PostgreSQL the command reads the database itself. The old archive exited 0 there with only
 * FILE.partial on the disk once five files were to be backed up.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('backup command on PostgreSQL', () => {
  it('exits 0 with a verified FILE (and no partial file), exits 1 without FILE on a failure, and restores', async () => {
    const source = await createTestDb('postgres');
    cleanup.push(() => source.close());
    const root = tmp();
    const vars = { DATABASE_URL: source.url ?? '', DATA_DIR: path.join(root, 'data'), MEDIA_DIR: path.join(root, 'media') };
    writeFiles(vars.MEDIA_DIR, 40, 1024 * 1024);
    await source.db.insertInto('users').values({ name: 'PgRow', name_key: 'pgrow', password_hash: 'x', level: 1 }).execute();

    const archive = path.join(root, 'out', 'site.tar.gz');
    const backup = cli('backup', [archive], vars);
    expect(backup.stderr).toBe('');
    expect(backup.status).toBe(0);
    expect(backup.stdout).toMatch(/and 42 files to .*site\.tar\.gz/);
    expect(fs.readdirSync(path.join(root, 'out'))).toEqual(['site.tar.gz']);
    expect(cli('backup', ['--verify', archive], { BACKUP_KEY_FILE: path.join(vars.DATA_DIR, 'backup.key') }).status).toBe(0);

    fs.writeFileSync(path.join(root, 'a-file'), '');
    const failed = cli('backup', [path.join(root, 'a-file', 'site.tar.gz')], vars);
    expect(failed.status).toBe(1);
    expect(failed.stderr).not.toBe('');
    expect(fs.existsSync(path.join(root, 'a-file', 'site.tar.gz'))).toBe(false);

    const target = await createTestDb('postgres');
    cleanup.push(() => target.close());
    const into = tmp();
    const restore = cli('restore', [archive], {
      DATABASE_URL: target.url ?? '',
      DATA_DIR: path.join(into, 'data'),
      MEDIA_DIR: path.join(into, 'm'),
      BACKUP_KEY_FILE: path.join(vars.DATA_DIR, 'backup.key'),
    });
    expect(restore.stderr).toBe('');
    expect(restore.status).toBe(0);
    // .tmp: the media store's own temporary folder, made when the store opens (as when the server starts).
    expect(fs.readdirSync(path.join(into, 'm')).sort()).toEqual(['.tmp', 'empty', 'pictures', 'video.mp4']);
    expect(fs.readdirSync(path.join(into, 'm', '.tmp'))).toEqual([]);
    expect((await target.db.selectFrom('users').select('name').execute()).map((r) => r.name)).toEqual(['PgRow']);
  }, 240_000);
});
