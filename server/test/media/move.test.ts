import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage, createS3Storage, type MediaStorage } from '../../src/media/index.ts';
import { mediaCommand } from '../../src/media/media.cli.ts';
import { moveMedia } from '../../src/media/move.ts';
import { startTestS3, type TestS3 } from '../../src/testing/s3-server.ts';
import { jpegWithExif, png } from '../pictures/pictures.fixtures.ts';

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function contents(store: MediaStorage): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for await (const file of store.walk()) found[file.key] = sha(await store.readBuffer(file.key));
  return found;
}

describe('npm run media -- move (a real S3 protocol server on 127.0.0.1)', () => {
  let s3: TestS3;
  const dirs: string[] = [];
  const dir = (name: string) => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
    dirs.push(made);
    return made;
  };
  /** A site's media as they are on its disk: pictures and their thumbnails, a video big enough for several parts, documents. */
  let files: Record<string, Buffer>;
  beforeAll(async () => {
    s3 = await startTestS3();
    files = {
      'pictures/0123456789abcdef0123456789abcdef.jpg': await jpegWithExif(),
      'pictures/0123456789abcdef0123456789abcdef.thumb.webp': await png({ width: 40, height: 30 }),
      'pictures/fedcba9876543210fedcba9876543210.mp4': Buffer.alloc(12 * 1024 * 1024 + 17, 7),
      'finance/2024/receipt.pdf': Buffer.from('%PDF-1.4 a receipt'),
      'recipes/cake.webp': await png({ width: 20, height: 20 }, '#336699'),
    };
  });
  afterAll(async () => {
    await s3?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
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

  it('the command moves a site to the bucket and back to a disk, saying what to do next', async () => {
    const { dataDir } = await siteOnDisk();
    const env = { ...s3.env('moved/'), MEDIA_STORE: 'local', DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const said: string[] = [];
    expect(await mediaCommand(['move', '--to', 's3'], env, (line) => said.push(line))).toBe(0);
    expect(said.at(-1)).toBe('Done: 5 files copied and checked (12.0 MB). To switch, set MEDIA_STORE=s3, restart the server, then run this command once more.');

    const elsewhere = dir('move-back');
    said.length = 0;
    expect(await mediaCommand(['move', '--to', 'local'], { ...env, MEDIA_STORE: 's3', DATA_DIR: elsewhere }, (line) => said.push(line))).toBe(0);
    expect(said.at(-1)).toBe('Done: 5 files copied and checked (12.0 MB). To switch, set MEDIA_STORE=local, restart the server, then run this command once more.');
    const back = createLocalStorage(path.join(elsewhere, 'media'));
    expect(await contents(back)).toEqual(Object.fromEntries(Object.entries(files).map(([key, data]) => [key, sha(data)])));
    said.length = 0;
    expect(await mediaCommand(['move', '--to', 'local'], { ...env, MEDIA_STORE: 'local', DATA_DIR: elsewhere }, (line) => said.push(line))).toBe(0);
    expect(said.at(-1)).toBe('Done: 0 files copied and checked (0.0 MB), 5 copied by an earlier run. MEDIA_STORE already names this store: nothing else to do.');
    expect(await mediaCommand(['move', '--to', 'ftp'], env, () => {})).toBe(2);
  });
});
