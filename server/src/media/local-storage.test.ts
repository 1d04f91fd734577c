import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalStorage } from './local-storage.ts';
import { assertMediaKey, contentDisposition, MediaKeyError, MediaTooLargeError, type MediaStorage } from './storage.ts';

let root: string;
let media: MediaStorage;
const tempFiles = () => fs.readdirSync(path.join(root, '.tmp'));

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'media-test-'));
  media = createLocalStorage(root);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A stream of `count` chunks of `size` bytes, each filled with its index. */
function chunks(count: number, size: number): Readable {
  let i = 0;
  return new Readable({
    read() {
      this.push(i < count ? Buffer.alloc(size, i++ % 256) : null);
    },
  });
}

describe('receiving a file', () => {
  it('streams into a temporary file that appears under its key only on commit', async () => {
    const incoming = await media.receive(chunks(64, 16 * 1024), { maxBytes: 10 * 1024 * 1024 });
    expect(incoming.size).toBe(64 * 16 * 1024);
    expect(incoming.head.length).toBe(4100);
    expect(await media.stat('pictures/a.bin')).toBeNull();
    expect(tempFiles()).toHaveLength(1);
    await incoming.commit('pictures/a.bin');
    expect(tempFiles()).toHaveLength(0);
    expect((await media.stat('pictures/a.bin'))?.size).toBe(64 * 16 * 1024);
    await incoming.discard();
    expect(await media.stat('pictures/a.bin')).not.toBeNull();
  });

  it("takes the file's SHA-256 while it streams in", async () => {
    const incoming = await media.receive(chunks(3, 1000), { maxBytes: 1e6 });
    const expected = createHash('sha256').update(Buffer.concat([0, 1, 2].map((i) => Buffer.alloc(1000, i)))).digest('hex');
    expect(incoming.sha256).toBe(expected);
    await incoming.discard();
  });

  it('refuses a file over the limit and leaves nothing behind', async () => {
    await expect(media.receive(chunks(10, 1024), { maxBytes: 5000 })).rejects.toBeInstanceOf(MediaTooLargeError);
    expect(tempFiles()).toEqual([]);
  });

  it('leaves nothing behind when the upload breaks off or is discarded', async () => {
    const broken = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(media.receive(broken, { maxBytes: 1e6 })).rejects.toThrow('connection reset');
    const abort = new AbortController();
    const slow = new Readable({ read() {} });
    const pending = media.receive(slow, { maxBytes: 1e6, signal: abort.signal });
    slow.push(Buffer.alloc(10));
    abort.abort();
    await expect(pending).rejects.toThrow();
    const kept = await media.receive(chunks(1, 10), { maxBytes: 1e6 });
    await kept.discard();
    expect(tempFiles()).toEqual([]);
  });
});

describe('stored files', () => {
  it('puts, reads whole and by range, and deletes', async () => {
    await media.put('docs/x.txt', Buffer.from('hello world'));
    expect((await media.readBuffer('docs/x.txt')).toString()).toBe('hello world');
    const part: Buffer[] = [];
    for await (const chunk of media.read('docs/x.txt', { start: 6, end: 10 })) part.push(chunk as Buffer);
    expect(Buffer.concat(part).toString()).toBe('world');
    expect(fs.existsSync(media.localPath('docs/x.txt'))).toBe(true);
    await media.delete('docs/x.txt');
    await media.delete('docs/x.txt');
    expect(await media.stat('docs/x.txt')).toBeNull();
  });

  it('refuses keys that could leave the store', () => {
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a//b', '.hidden', '%2e%2e/x', 'a\\b', '', 'a/b/']) {
      expect(() => assertMediaKey(bad), bad).toThrow(MediaKeyError);
    }
    expect(assertMediaKey('pictures/2024/ab12.thumb.webp')).toBe('pictures/2024/ab12.thumb.webp');
    expect(() => media.localPath('../outside')).toThrow(MediaKeyError);
  });

  it('lists a folder, and sweeps only temporaries nothing has written to for the given time', async () => {
    await media.put('pictures/a.jpg', Buffer.from('a'));
    await media.put('pictures/b.png', Buffer.from('bb'));
    expect((await media.list('pictures')).map((f) => [f.key, f.size])).toEqual(expect.arrayContaining([['pictures/a.jpg', 1], ['pictures/b.png', 2]]));
    expect(await media.list('nothing-here')).toEqual([]);
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
    expect(tempFiles()).toEqual([path.basename(working.path)]);
    await working.remove();
  });

  it('gives a fresh temporary folder that is removed with its contents', async () => {
    const dir = await media.tempDir('ytdl');
    fs.writeFileSync(path.join(dir.path, 'part'), 'x');
    await dir.remove();
    expect(fs.existsSync(dir.path)).toBe(false);
  });

  it('writes a download name any browser reads, in ASCII and UTF-8', () => {
    expect(contentDisposition('Café "live".mp4')).toBe(`attachment; filename="Caf_ _live_.mp4"; filename*=UTF-8''Caf%C3%A9%20%22live%22.mp4`);
  });
});

describe('sending a stored file over HTTP', () => {
  async function server() {
    const app = Fastify();
    app.get('/m/*', (req, reply) => {
      const key = (req.params as { '*': string })['*'];
      const svg = key.endsWith('.svg');
      return media.send(req, reply, key, {
        immutable: !svg,
        ...(svg ? { contentType: 'image/svg+xml', csp: "sandbox; default-src 'none'" } : {}),
        ...(key.endsWith('.mp4') ? { downloadName: 'clip é.mp4' } : {}),
      });
    });
    await media.put('v/clip.mp4', Buffer.from('0123456789'));
    await media.put('v/pic.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    return app;
  }

  it('answers whole files, ranges, conditional requests and unknown keys', async () => {
    const app = await server();
    const whole = await app.inject({ url: '/m/v/clip.mp4' });
    expect(whole.statusCode).toBe(200);
    expect(whole.body).toBe('0123456789');
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(whole.headers['content-disposition']).toContain("filename*=UTF-8''clip%20%C3%A9.mp4");

    const range = await app.inject({ url: '/m/v/clip.mp4', headers: { range: 'bytes=2-5' } });
    expect([range.statusCode, range.body, range.headers['content-range']]).toEqual([206, '2345', 'bytes 2-5/10']);
    const beyond = await app.inject({ url: '/m/v/clip.mp4', headers: { range: 'bytes=50-60' } });
    expect(beyond.statusCode).toBe(416);
    const again = await app.inject({ url: '/m/v/clip.mp4', headers: { 'if-none-match': String(whole.headers.etag) } });
    expect(again.statusCode).toBe(304);

    expect((await app.inject({ url: '/m/v/none.mp4' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/m/v/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/m/.tmp/x' })).statusCode).toBe(404);
    await app.close();
  });

  it('serves SVG under a sandbox policy so its script cannot run', async () => {
    const app = await server();
    const res = await app.inject({ url: '/m/v/pic.svg' });
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    await app.close();
  });
});
