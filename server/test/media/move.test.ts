import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildApp, createDeps } from '../../src/app.ts';
import { createDb, type DbHandle } from '../../src/db/database.ts';
import { startControlChannel } from '../../src/local-commands/control.ts';
import { createLocalStorage, createS3Storage, recordedStore, useRecordedStore, type MediaStorage, type SwitchingStorage } from '../../src/media/index.ts';
import { mediaCommand } from '../../src/media/media.cli.ts';
import { switchMediaStore } from '../../src/media/media.state.ts';
import { migrateToLatest } from '../../src/migrations.ts';
import { watchDatabaseChanges } from '../../src/watch-changes.ts';
import { cookieFor, createTestDb, databases, testConfig, type TestDb } from '../helpers.ts';
import { moveMedia } from '../../src/media/move.ts';
import { startTestS3, type TestS3 } from '../../src/testing/s3-server.ts';
import { cliCommand } from '../../src/testing/cli-fixtures.ts';
import { png, uploadVia } from '../pictures/pictures.fixtures.ts';
import { siteMediaFiles, useTempDirs } from './media.samples.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** `npm run media -- move --to <to>` in a process of its own (async: this process answers its control socket meanwhile). */
function moveInChild(to: string, env: Record<string, string>, said: string[]): Promise<number | null> {
  const run = cliCommand(path.join(repoRoot, 'scripts/src/media/cli.ts'), ['move', '--to', to], inject('cliBundles'));
  const child = spawn(run.file, run.args, {
    cwd: os.tmpdir(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += String(chunk)));
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      said.push(...out.trim().split('\n'));
      resolve(code);
    }),
  );
}

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function contents(store: MediaStorage): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for await (const file of store.walk()) found[file.key] = sha(await store.readBuffer(file.key));
  return found;
}

describe('npm run media -- move (a real S3 protocol server on 127.0.0.1)', () => {
  let s3: TestS3;
  const dir = useTempDirs();
  let files: Record<string, Buffer>;
  beforeAll(async () => {
    s3 = await startTestS3();
    files = await siteMediaFiles();
  });
  afterAll(async () => {
    await s3?.close();
  });

  async function siteOnDisk() {
    const dataDir = dir('move-data');
    const media = createLocalStorage(path.join(dataDir, 'media'));
    for (const [key, data] of Object.entries(files)) await media.put(key, data);
    return { dataDir, media };
  }

  it('copies every file into the bucket, checks each, and goes on where a stopped run stopped', async () => {
    const { dataDir, media } = await siteOnDisk();
    const settings = s3.settings();
    const bucket = createS3Storage({ ...settings, tempRoot: dir('move-tmp'), partSize: 5 * 1024 * 1024 });
    const journal = path.join(dataDir, 'journal');

    const stop = new AbortController();
    const first = moveMedia(media, bucket, { journal, signal: stop.signal, onFile: () => stop.abort(new Error('stopped')) });
    await expect(first).rejects.toThrow('stopped');
    const copiedFirst = Object.keys(await contents(bucket));
    expect(copiedFirst).toHaveLength(1);
    expect(fs.readFileSync(journal, 'utf8').trim().split('\n')).toHaveLength(1);

    const rest = await moveMedia(media, bucket, { journal });
    expect(rest).toMatchObject({ copied: 4, already: 1 });
    const expected = Object.fromEntries(Object.entries(files).map(([key, data]) => [key, sha(data)]));
    expect(await contents(bucket)).toEqual(expected);
    expect(await contents(media)).toEqual(expected); // the source is only read
    const lines = fs.readFileSync(journal, 'utf8').trim().split('\n').sort();
    expect(lines).toEqual(Object.entries(files).map(([key, data]) => `${key}\t${data.length}\t${sha(data)}`).sort());

    // A file uploaded after the move is taken by the next run; the others are not copied again.
    await media.put('pictures/00000000000000000000000000000000.png', files['recipes/cake.webp'] ?? Buffer.alloc(0));
    expect(await moveMedia(media, bucket, { journal })).toMatchObject({ copied: 1, already: 5 });
  });

  it('the command moves a stopped site on PGlite to the bucket and back, recording where its media are', async () => {
    const { dataDir } = await siteOnDisk();
    const env = { ...s3.env('moved/'), MEDIA_STORE: 'local', DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const disk = `the local folder ${path.join(dataDir, 'media')}`;
    const bucket = `the bucket ${s3.settings().bucket} (folder moved/) at ${s3.settings().endpoint}`;
    const said: string[] = [];
    expect(await mediaCommand(['move', '--to', 's3'], env, (line) => said.push(line))).toBe(0);
    // A progress line comes every 2 s of copying: how many depends on the machine's speed.
    const progress = /^ {2}\d+ copied and checked \(\d+\.\d MB\), now at \S+$/;
    expect(said.filter((line) => !progress.test(line))).toEqual([
      `Copying the files of ${disk} into ${bucket}; the site keeps serving meanwhile...`,
      `Switched: new files go to ${bucket}. Copying the files that came in meanwhile...`,
      `Done: 5 files copied and checked (12.0 MB). The site's media are in ${bucket}; the copies in ${disk} are left as they were.`,
    ]);
    expect(fs.existsSync(path.join(dataDir, 'media-move-to-s3.journal'))).toBe(false);
    const handle = await createDb({ kind: 'pglite', dataDir });
    expect(await recordedStore(handle.db)).toEqual({ active: 's3', previous: null });
    // A server starting on it serves from the bucket though MEDIA_STORE still says local...
    const started = createDeps(testConfig(env), handle.db);
    await useRecordedStore(handle.db, started.media);
    expect(started.media.description).toBe(bucket);
    // ...and one without the bucket's settings refuses to start, saying why.
    await expect(useRecordedStore(handle.db, createDeps(testConfig({ MEDIA_STORE: 'local', DATA_DIR: dataDir }), handle.db).media)).rejects.toThrow(
      "The site's media are in the bucket (npm run media -- move --to s3), but S3_BUCKET is not set",
    );
    await handle.close();

    said.length = 0;
    expect(await mediaCommand(['move', '--to', 's3'], env, (line) => said.push(line))).toBe(0);
    expect(said).toEqual([`The site's media are in ${bucket} already: nothing to move.`]);

    // Back to a disk (an empty one): the bucket's files, whatever MEDIA_STORE says.
    fs.rmSync(path.join(dataDir, 'media'), { recursive: true, force: true });
    said.length = 0;
    expect(await mediaCommand(['move', '--to', 'local'], env, (line) => said.push(line))).toBe(0);
    expect(said.at(-1)).toBe(`Done: 5 files copied and checked (12.0 MB). The site's media are in ${disk}; the copies in ${bucket} are left as they were.`);
    expect(await contents(createLocalStorage(path.join(dataDir, 'media')))).toEqual(Object.fromEntries(Object.entries(files).map(([key, data]) => [key, sha(data)])));
    expect(await mediaCommand(['move', '--to', 'ftp'], env, () => {})).toBe(2);
    await expect(mediaCommand(['move', '--to', 's3'], { MEDIA_STORE: 'local', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, () => {})).rejects.toThrow(
      'Moving media needs the bucket: set S3_BUCKET (and S3_ENDPOINT and the other S3_* settings the server uses)',
    );
  }, 120_000); // two runs of the command, each a new Node process

  /**
   * A serving site, on PGlite (the command asks it over the control socket) and on PostgreSQL (the
   * command writes the row; the server hears it by NOTIFY): moved to the bucket and back, no restart.
   */
  describe.each(databases)('a running site (%s)', (kind) => {
    it('switches over to the bucket and back while it serves, and serves every picture from wherever it is', async () => {
      const dataDir = dir(`live-${kind}`);
      const env = { ...s3.env(`live-${kind}/`), MEDIA_STORE: 'local', DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
      let handle: DbHandle;
      if (kind === 'pglite') {
        handle = await createDb({ kind: 'pglite', dataDir });
        await migrateToLatest(handle.db);
      } else {
        handle = await createTestDb('postgres');
        Object.assign(env, { DATABASE_URL: (handle as TestDb).url });
      }
      const deps = createDeps(testConfig(env), handle.db);
      const app = await buildApp(deps);
      const watching = watchDatabaseChanges(handle, deps, app.log);
      const control = kind === 'pglite' ? await startControlChannel({ mediaStore: (state) => switchMediaStore(deps, state) }, dataDir) : null;
      try {
        await watching.ready;
        const cookie = await cookieFor(deps, 3);
        const stemOf = async (res: { statusCode: number; body: string }) => {
          expect(res.statusCode, res.body).toBe(200);
          return (await deps.db.selectFrom('pictures').select('stem').where('id', '=', (JSON.parse(res.body) as { id: number }).id).executeTakeFirstOrThrow()).stem;
        };
        const disk = createLocalStorage(path.join(dataDir, 'media'));
        const bucket = createS3Storage({ ...s3.settings(`live-${kind}/`), tempRoot: dir('live-tmp') });
        const view = (stem: string) => app.inject({ url: `/private/pictures/${stem}.png`, headers: { cookie } });

        const before = await stemOf(await uploadVia(app, cookie, { name: 'a.png', data: await png({ width: 30, height: 20 }) }));
        expect(await disk.stat(`pictures/${before}.png`)).not.toBeNull();

        const said: string[] = [];
        // PGlite opens in one process only: the command runs in its own, as `npm run media` does, and asks this one.
        const move = (to: string) => (kind === 'pglite' ? moveInChild(to, env, said) : mediaCommand(['move', '--to', to], env, (line) => said.push(line), { switchGraceMs: 300 }));
        expect(await move('s3')).toBe(0);
        expect(said.at(-1)).toMatch(/^Done: \d+ files copied and checked/);
        // This server switched without a restart: the picture from before comes from the bucket...
        await vi.waitFor(() => expect((deps.media as SwitchingStorage).state).toEqual({ active: 's3', previous: null }));
        await disk.delete(`pictures/${before}.png`);
        const served = await view(before);
        expect(served.statusCode).toBe(200);
        expect(served.rawPayload.equals(await bucket.readBuffer(`pictures/${before}.png`))).toBe(true);
        // ...and a new one goes there only.
        const after = await stemOf(await uploadVia(app, cookie, { name: 'b.png', data: await png({ width: 31, height: 20 }, '#112233') }));
        expect(await bucket.stat(`pictures/${after}.png`)).not.toBeNull();
        expect(await disk.stat(`pictures/${after}.png`)).toBeNull();
        expect((await app.inject({ url: '/trpc/pictures.mediaStore', headers: { cookie } })).body).toContain(`the bucket ${s3.settings().bucket}`);

        said.length = 0;
        expect(await move('local')).toBe(0);
        await vi.waitFor(() => expect((deps.media as SwitchingStorage).state).toEqual({ active: 'local', previous: null }));
        await bucket.delete(`pictures/${after}.png`);
        expect((await view(after)).statusCode).toBe(200);
        expect((await view(before)).statusCode).toBe(200);
        expect(await recordedStore(deps.db)).toEqual({ active: 'local', previous: null });
      } finally {
        await control?.close();
        await app.close();
        await watching.stop();
        await handle.close();
      }
    }, 120_000); // on PGlite: a new database migrated here, and two runs of the command in processes of their own
  });
});
