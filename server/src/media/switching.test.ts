import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalStorage } from './local-storage.ts';
import { mediaStorageContract } from './storage.contract.ts';
import { MediaStoreNotConfiguredError, SwitchingStorage } from './switching.ts';

const roots: string[] = [];
const root = () => {
  const made = fs.mkdtempSync(path.join(os.tmpdir(), 'switching-test-'));
  roots.push(made);
  return made;
};
const text = async (stream: Readable) => {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
};

/** Two stores standing for the disk and the bucket (the bucket's own suite runs in s3-storage.test.ts). */
function twoStores() {
  const [diskRoot, bucketRoot] = [root(), root()];
  const local = createLocalStorage(diskRoot);
  const s3 = createLocalStorage(bucketRoot);
  return { local, s3, media: new SwitchingStorage({ local, s3 }, 'local'), diskRoot, bucketRoot };
}

describe('the switching store', () => {
  afterEach(() => {
    for (const made of roots.splice(0)) fs.rmSync(made, { recursive: true, force: true });
  });

  describe('is a whole media store in the middle of a move (new store active, the old one read)', () => {
    mediaStorageContract(async () => {
      const { media, bucketRoot } = twoStores();
      media.use({ active: 's3', previous: 'local' });
      return { media, leftovers: async () => fs.readdirSync(path.join(bucketRoot, '.tmp')), cleanup: async () => {} };
    });
  });

  it('reads a file not copied yet from the store it moved from, and only until the move is done', async () => {
    const { local, s3, media } = twoStores();
    await local.put('pictures/old.txt', Buffer.from('on the disk'));
    media.use({ active: 's3', previous: 'local' });
    expect(media.description).toBe(s3.description);
    expect(await media.stat('pictures/old.txt')).toMatchObject({ size: 11 });
    expect((await media.readBuffer('pictures/old.txt')).toString()).toBe('on the disk');
    expect(await text(media.read('pictures/old.txt', { start: 3, end: 6 }))).toBe('the ');
    expect(await media.withLocalFile('pictures/old.txt', async (file) => fs.readFileSync(file, 'utf8'))).toBe('on the disk');
    // New files go to the new store only.
    await media.put('pictures/new.txt', Buffer.from('new'));
    expect(await s3.stat('pictures/new.txt')).not.toBeNull();
    expect(await local.stat('pictures/new.txt')).toBeNull();
    // Both stores' files are listed once, the new store's copy first.
    await s3.put('pictures/old.txt', Buffer.from('in the bucket'));
    expect((await media.list('pictures')).map((f) => [f.key, f.size])).toEqual(
      expect.arrayContaining([
        ['pictures/new.txt', 3],
        ['pictures/old.txt', 13],
      ]),
    );
    expect(await media.list('pictures')).toHaveLength(2);
    const walked: string[] = [];
    for await (const file of media.walk()) walked.push(file.key);
    expect(walked.sort()).toEqual(['pictures/new.txt', 'pictures/old.txt']);
    expect((await media.readBuffer('pictures/old.txt')).toString()).toBe('in the bucket');

    // A file deleted during the move goes from both stores.
    await media.delete('pictures/old.txt');
    expect(await local.stat('pictures/old.txt')).toBeNull();
    expect(await s3.stat('pictures/old.txt')).toBeNull();

    await local.put('pictures/left.txt', Buffer.from('left behind'));
    media.use({ active: 's3', previous: null });
    expect(await media.stat('pictures/left.txt')).toBeNull();
    await expect(media.readBuffer('pictures/left.txt')).rejects.toThrow();
  });

  it('copies an upload that was streaming in when the site switched into the new store', async () => {
    const { local, s3, media } = twoStores();
    const incoming = await media.receive(Readable.from([Buffer.from('half '), Buffer.from('way')]), { maxBytes: 100 });
    media.use({ active: 's3', previous: 'local' });
    await incoming.commit('pictures/late.txt');
    expect((await s3.readBuffer('pictures/late.txt')).toString()).toBe('half way');
    expect((await local.readBuffer('pictures/late.txt')).toString()).toBe('half way');
  });

  it('refuses a store the configuration does not describe, and stays where it was', () => {
    const local = createLocalStorage(root());
    const media = new SwitchingStorage({ local }, 'local');
    expect(() => media.use({ active: 's3', previous: 'local' })).toThrow(MediaStoreNotConfiguredError);
    expect(() => media.use({ active: 's3', previous: 'local' })).toThrow(
      "The site's media are in the bucket (npm run media -- move --to s3), but S3_BUCKET is not set: set the S3_* settings the move used",
    );
    expect(media.state).toEqual({ active: 'local', previous: null });
    expect(media.localFolder).toBe(local.localFolder);
  });
});
