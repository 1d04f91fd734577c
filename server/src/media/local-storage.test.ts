import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalStorage } from './local-storage.ts';
import { mediaStorageContract } from './storage.contract.ts';

const tempFiles = (root: string) => fs.readdirSync(path.join(root, '.tmp'));

describe('the local store', () => {
  mediaStorageContract(async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'media-test-'));
    return {
      media: createLocalStorage(root),
      leftovers: async () => tempFiles(root),
      cleanup: async () => fs.rmSync(root, { recursive: true, force: true }),
    };
  });

  it('lends the stored file itself to tools', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'media-test-'));
    const media = createLocalStorage(root);
    await media.put('docs/x.txt', Buffer.from('x'));
    expect(await media.withLocalFile('docs/x.txt', async (file) => file)).toBe(path.join(root, 'docs', 'x.txt'));
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('sweeps only temporaries nothing has written to for the given time', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'media-test-'));
    // The sweep at opening takes nothing this test makes (it runs while the test writes).
    const media = createLocalStorage(root, { sweepOlderThanMs: 24 * 3600_000 });
    const hourAgo = new Date(Date.now() - 3600_000);
    const stale = path.join(root, '.tmp', 'stale');
    fs.writeFileSync(stale, 'x');
    fs.utimesSync(stale, hourAgo, hourAgo);
    // A tool's folder whose own time is old but which a file inside was just written to: still at work.
    const working = await media.tempDir('ytdl');
    fs.writeFileSync(path.join(working.path, 'part'), 'x');
    fs.utimesSync(working.path, hourAgo, hourAgo);
    const abandoned = await media.tempDir('derive');
    fs.writeFileSync(path.join(abandoned.path, 'frame.png'), 'x');
    fs.utimesSync(path.join(abandoned.path, 'frame.png'), hourAgo, hourAgo);
    fs.utimesSync(abandoned.path, hourAgo, hourAgo);
    expect(await media.sweepTemporary(5 * 60_000)).toBe(2);
    expect(tempFiles(root)).toEqual([path.basename(working.path)]);
    await working.remove();
    fs.rmSync(root, { recursive: true, force: true });
  });
});
