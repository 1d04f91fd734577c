import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertMediaKey, contentDisposition, MediaKeyError, MediaTooLargeError, type MediaStorage } from './storage.ts';

/** A store under test and what only its own test can see: what is left in its temporary places. */
export type StoreUnderTest = {
  media: MediaStorage;
  /** Temporary files and objects of uploads still in the store (the local .tmp, the bucket's .incoming/). */
  leftovers(): Promise<string[]>;
  cleanup(): Promise<void>;
};

/** A stream of `count` chunks of `size` bytes, each filled with its index. */
export function chunks(count: number, size: number): Readable {
  let i = 0;
  return new Readable({
    read() {
      this.push(i < count ? Buffer.alloc(size, i++ % 256) : null);
    },
  });
}

/**
 * What every MediaStorage does, run against each store (local-storage.test.ts, s3-storage.test.ts):
 * one suite, so the stores cannot drift apart.
 */
export function mediaStorageContract(open: () => Promise<StoreUnderTest>): void {
  let store: StoreUnderTest;
  let media: MediaStorage;
  beforeEach(async () => {
    store = await open();
    media = store.media;
  });
  afterEach(() => store.cleanup());

  describe('receiving a file', () => {
    it('streams into a temporary place and appears under its key only on commit', async () => {
      const incoming = await media.receive(chunks(64, 16 * 1024), { maxBytes: 10 * 1024 * 1024 });
      expect(incoming.size).toBe(64 * 16 * 1024);
      expect(incoming.head.length).toBe(4100);
      expect(fs.statSync(incoming.path).size).toBe(64 * 16 * 1024);
      expect(await media.stat('pictures/a.bin')).toBeNull();
      expect(await media.list('pictures')).toEqual([]);
      expect((await store.leftovers()).length).toBeGreaterThan(0);
      await incoming.commit('pictures/a.bin');
      expect(await store.leftovers()).toEqual([]);
      expect((await media.stat('pictures/a.bin'))?.size).toBe(64 * 16 * 1024);
      const back = await media.readBuffer('pictures/a.bin');
      expect(createHash('sha256').update(back).digest('hex')).toBe(incoming.sha256);
      await incoming.discard();
      expect(await media.stat('pictures/a.bin')).not.toBeNull();
    });

    it("takes the file's SHA-256 while it streams in", async () => {
      const incoming = await media.receive(chunks(3, 1000), { maxBytes: 1e6 });
      const expected = createHash('sha256').update(Buffer.concat([0, 1, 2].map((i) => Buffer.alloc(1000, i)))).digest('hex');
      expect(incoming.sha256).toBe(expected);
      await incoming.discard();
      expect(await store.leftovers()).toEqual([]);
    });

    it('refuses a file over the limit and leaves nothing behind', async () => {
      await expect(media.receive(chunks(10, 1024), { maxBytes: 5000 })).rejects.toBeInstanceOf(MediaTooLargeError);
      expect(await store.leftovers()).toEqual([]);
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
      expect(await store.leftovers()).toEqual([]);
      expect(await media.list('pictures')).toEqual([]);
    });

    it('leaves nothing behind when a large upload (several parts) breaks off half-way', async () => {
      let sent = 0;
      const big = new Readable({
        read() {
          sent += 1024 * 1024;
          if (sent > 12 * 1024 * 1024) this.destroy(new Error('connection reset'));
          else this.push(Buffer.alloc(1024 * 1024, sent % 251));
        },
      });
      await expect(media.receive(big, { maxBytes: 1e9 })).rejects.toThrow('connection reset');
      expect(await store.leftovers()).toEqual([]);
    });
  });

  describe('stored files', () => {
    it('puts, reads whole and by range, lends a local copy, and deletes', async () => {
      await media.put('docs/x.txt', Buffer.from('hello world'));
      expect((await media.readBuffer('docs/x.txt')).toString()).toBe('hello world');
      const part: Buffer[] = [];
      for await (const chunk of media.read('docs/x.txt', { start: 6, end: 10 })) part.push(chunk as Buffer);
      expect(Buffer.concat(part).toString()).toBe('world');
      expect(await media.withLocalFile('docs/x.txt', async (file) => fs.readFileSync(file, 'utf8'))).toBe('hello world');
      await media.delete('docs/x.txt');
      await media.delete('docs/x.txt');
      expect(await media.stat('docs/x.txt')).toBeNull();
      await expect(media.withLocalFile('docs/x.txt', async () => 'read')).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await store.leftovers()).toEqual([]);
    });

    it('refuses keys that could leave the store', async () => {
      for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a//b', '.hidden', '%2e%2e/x', 'a\\b', '', 'a/b/']) {
        expect(() => assertMediaKey(bad), bad).toThrow(MediaKeyError);
      }
      expect(assertMediaKey('pictures/2024/ab12.thumb.webp')).toBe('pictures/2024/ab12.thumb.webp');
      await expect(media.withLocalFile('../outside', async () => 'read')).rejects.toThrow(MediaKeyError);
      await expect(media.put('.incoming/x', Buffer.from('x'))).rejects.toThrow(MediaKeyError);
    });

    it('lists a folder without its subfolders', async () => {
      await media.put('pictures/a.jpg', Buffer.from('a'));
      await media.put('pictures/b.png', Buffer.from('bb'));
      await media.put('pictures/deeper/c.png', Buffer.from('ccc'));
      expect((await media.list('pictures')).map((f) => [f.key, f.size]).sort()).toEqual([
        ['pictures/a.jpg', 1],
        ['pictures/b.png', 2],
      ]);
      expect(await media.list('nothing-here')).toEqual([]);
    });

    it('walks every stored file of every folder, and none of the temporary ones', async () => {
      await media.put('pictures/a.jpg', Buffer.from('a'));
      await media.put('finance/2024/doc.pdf', Buffer.from('pdf'));
      await media.put('recipes/x.webp', Buffer.from('webp'));
      const pending = await media.receive(chunks(1, 10), { maxBytes: 1e6 });
      const walked: [string, number][] = [];
      for await (const file of media.walk()) walked.push([file.key, file.size]);
      expect(walked.sort()).toEqual([
        ['finance/2024/doc.pdf', 3],
        ['pictures/a.jpg', 1],
        ['recipes/x.webp', 4],
      ]);
      await pending.discard();
    });

    it('gives a fresh temporary folder that is removed with its contents', async () => {
      const dir = await media.tempDir('ytdl');
      fs.writeFileSync(`${dir.path}/part`, 'x');
      await dir.remove();
      expect(fs.existsSync(dir.path)).toBe(false);
    });

    it('says it is healthy while it answers', async () => {
      expect(await media.health()).toEqual({ ok: true });
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
          immutable: !svg && !key.includes('private'),
          noStore: key.includes('private'),
          ...(svg ? { contentType: 'image/svg+xml', csp: "sandbox; default-src 'none'" } : {}),
          ...(key.endsWith('.mp4') ? { downloadName: 'clip é.mp4' } : {}),
          ...(key.endsWith('.bin') ? { rewrite: { tag: 'upper', transform: (body: Readable) => body.map((c: Buffer) => Buffer.from(c.toString().toUpperCase())) } } : {}),
        });
      });
      await media.put('v/clip.mp4', Buffer.from('0123456789'));
      await media.put('v/private.jpg', Buffer.from('secret'));
      await media.put('v/text.bin', Buffer.from('abcdefgh'));
      await media.put('v/pic.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
      return app;
    }

    it('answers whole files, ranges, conditional requests and unknown keys', async () => {
      const app = await server();
      const whole = await app.inject({ url: '/m/v/clip.mp4' });
      expect(whole.statusCode).toBe(200);
      expect(whole.body).toBe('0123456789');
      expect(whole.headers['content-type']).toBe('video/mp4');
      expect(whole.headers['content-length']).toBe('10');
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.headers['cache-control']).toBe('private, max-age=31536000, immutable');
      expect(whole.headers['content-disposition']).toContain("filename*=UTF-8''clip%20%C3%A9.mp4");

      const range = await app.inject({ url: '/m/v/clip.mp4', headers: { range: 'bytes=2-5' } });
      expect([range.statusCode, range.body, range.headers['content-range']]).toEqual([206, '2345', 'bytes 2-5/10']);
      const open = await app.inject({ url: '/m/v/clip.mp4', headers: { range: 'bytes=7-' } });
      expect([open.statusCode, open.body, open.headers['content-range']]).toEqual([206, '789', 'bytes 7-9/10']);
      const suffix = await app.inject({ url: '/m/v/clip.mp4', headers: { range: 'bytes=-3' } });
      expect([suffix.statusCode, suffix.body, suffix.headers['content-range']]).toEqual([206, '789', 'bytes 7-9/10']);
      const beyond = await app.inject({ url: '/m/v/clip.mp4', headers: { range: 'bytes=50-60' } });
      expect([beyond.statusCode, beyond.headers['content-range']]).toEqual([416, 'bytes */10']);
      const again = await app.inject({ url: '/m/v/clip.mp4', headers: { 'if-none-match': String(whole.headers.etag) } });
      expect(again.statusCode).toBe(304);
      const head = await app.inject({ method: 'HEAD', url: '/m/v/clip.mp4' });
      expect([head.statusCode, head.body, head.headers['content-length'], head.headers['content-type']]).toEqual([200, '', '10', 'video/mp4']);

      expect((await app.inject({ url: '/m/v/none.mp4' })).statusCode).toBe(404);
      expect((await app.inject({ url: '/m/v/none.mp4', headers: { range: 'bytes=0-1' } })).statusCode).toBe(404);
      expect((await app.inject({ url: '/m/v/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404);
      expect((await app.inject({ url: '/m/.tmp/x' })).statusCode).toBe(404);
      expect((await app.inject({ url: '/m/.incoming/x' })).statusCode).toBe(404);
      await app.close();
    });

    it('keeps what must not be kept out of the cache, and rewrites ranges of the bytes in place', async () => {
      const app = await server();
      const secret = await app.inject({ url: '/m/v/private.jpg' });
      expect([secret.statusCode, secret.body, secret.headers['cache-control']]).toEqual([200, 'secret', 'private, no-store']);
      const rewritten = await app.inject({ url: '/m/v/text.bin' });
      expect([rewritten.statusCode, rewritten.body]).toEqual([200, 'ABCDEFGH']);
      expect(String(rewritten.headers.etag)).toMatch(/-upper"$/);
      const part = await app.inject({ url: '/m/v/text.bin', headers: { range: 'bytes=2-4' } });
      expect([part.statusCode, part.body, part.headers['content-range']]).toEqual([206, 'CDE', 'bytes 2-4/8']);
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
}
