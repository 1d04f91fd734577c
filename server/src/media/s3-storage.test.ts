import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../testing/s3-server.ts';
import { createS3Storage } from './s3-storage.ts';
import { chunks, mediaStorageContract } from './storage.contract.ts';
import { MediaUnavailableError } from './storage.ts';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(() => s3.close());

/** A client of its own, to look into the bucket as an outsider would. */
function outsider(settings: ReturnType<TestS3['settings']>) {
  return new S3Client({ endpoint: settings.endpoint!, region: settings.region, forcePathStyle: true, credentials: settings.credentials! });
}

async function keysUnder(settings: ReturnType<TestS3['settings']>, prefix: string): Promise<string[]> {
  const page = await outsider(settings).send(new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: settings.prefix + prefix }));
  return (page.Contents ?? []).map((o) => o.Key ?? '');
}

describe('the S3 store (against s3rver on 127.0.0.1)', () => {
  mediaStorageContract(async () => {
    const settings = s3.settings();
    const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'media-s3-tmp-'));
    return {
      media: createS3Storage({ ...settings, tempRoot, partSize: 5 * 1024 * 1024 }),
      leftovers: async () => [...fs.readdirSync(tempRoot), ...(await keysUnder(settings, '.incoming/'))],
      cleanup: async () => {
        fs.rmSync(tempRoot, { recursive: true, force: true });
        const keys = await keysUnder(settings, '');
        if (keys.length > 0) await outsider(settings).send(new DeleteObjectsCommand({ Bucket: settings.bucket, Delete: { Objects: keys.map((Key) => ({ Key })) } }));
      },
    };
  });
});

describe('the S3 store when the store goes away', () => {
  async function open() {
    const settings = s3.settings();
    const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'media-s3-tmp-'));
    const media = createS3Storage({ ...settings, tempRoot, partSize: 5 * 1024 * 1024, connectTimeoutMs: 1000 });
    return { settings, tempRoot, media };
  }

  it('refuses uploads and reads with a clear message, stores nothing, and works again once it is back', async () => {
    const { media, tempRoot, settings } = await open();
    await media.put('pictures/kept.jpg', Buffer.from('kept'));
    await s3.stop();
    try {
      expect(await media.health()).toMatchObject({ ok: false, reason: expect.stringContaining('ECONNREFUSED') });
      const refused = await media.receive(chunks(4, 1024), { maxBytes: 1e6 }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(MediaUnavailableError);
      expect((refused as MediaUnavailableError).code).toBe('SERVICE_UNAVAILABLE');
      expect((refused as Error).message).toBe('The file could not be stored: the media store is not answering right now. Nothing was kept; try again in a minute.');
      expect(fs.readdirSync(tempRoot)).toEqual([]);
      await expect(media.put('pictures/new.jpg', Buffer.from('x'))).rejects.toBeInstanceOf(MediaUnavailableError);
      await expect(media.stat('pictures/kept.jpg')).rejects.toThrow('This file cannot be loaded right now: the media store is not answering. Try again in a minute.');

      const app = Fastify();
      app.get('/m/*', (req, reply) => media.send(req, reply, (req.params as { '*': string })['*']));
      const res = await app.inject({ url: '/m/pictures/kept.jpg' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: 'This file cannot be loaded right now: the media store is not answering. Try again in a minute.' });
      await app.close();
    } finally {
      await s3.start();
    }
    // The same store object, no restart: everything works again.
    expect(await media.health()).toEqual({ ok: true });
    expect((await media.readBuffer('pictures/kept.jpg')).toString()).toBe('kept');
    const incoming = await media.receive(chunks(4, 1024), { maxBytes: 1e6 });
    await incoming.commit('pictures/new.jpg');
    expect((await media.list('pictures')).map((f) => f.key).sort()).toEqual(['pictures/kept.jpg', 'pictures/new.jpg']);
    expect(await keysUnder(settings, '.incoming/')).toEqual([]);
  });

  it('stopped in the middle of an upload: the upload is refused and nothing is left, here or in the bucket', async () => {
    const { media, tempRoot, settings } = await open();
    let sent = 0;
    let stopped: Promise<void> | null = null;
    const big = new Readable({
      read() {
        sent += 1024 * 1024;
        if (sent === 8 * 1024 * 1024) stopped = s3.stop();
        if (sent > 40 * 1024 * 1024) this.push(null);
        else this.push(Buffer.alloc(1024 * 1024, sent % 251));
      },
    });
    try {
      await expect(media.receive(big, { maxBytes: 1e9 })).rejects.toBeInstanceOf(MediaUnavailableError);
      expect(stopped).not.toBeNull();
      expect(fs.readdirSync(tempRoot)).toEqual([]);
    } finally {
      await stopped;
      await s3.start();
    }
    expect(await keysUnder(settings, '')).toEqual([]);
  });

  it('keeps small files whose key never changes in memory: they are served while the store is away, until deleted', async () => {
    const { media } = await open();
    await media.put('pictures/t.thumb.webp', Buffer.from('thumbnail bytes'));
    await media.put('pictures/o.jpg', Buffer.from('original bytes'));
    const app = Fastify();
    app.get('/m/*', (req, reply) => {
      const key = (req.params as { '*': string })['*'];
      return media.send(req, reply, key, key.includes('thumb') ? { immutable: true } : { noStore: true });
    });
    const first = await app.inject({ url: '/m/pictures/t.thumb.webp' });
    expect([first.statusCode, first.body, first.headers['content-type']]).toEqual([200, 'thumbnail bytes', 'image/webp']);
    await s3.stop();
    try {
      const cached = await app.inject({ url: '/m/pictures/t.thumb.webp', headers: { range: 'bytes=-5' } });
      expect([cached.statusCode, cached.body, cached.headers['content-range'], cached.headers.etag]).toEqual([206, 'bytes', 'bytes 10-14/15', first.headers.etag]);
      expect((await app.inject({ url: '/m/pictures/t.thumb.webp', headers: { 'if-none-match': String(first.headers.etag) } })).statusCode).toBe(304);
      expect((await app.inject({ url: '/m/pictures/o.jpg' })).statusCode).toBe(503);
    } finally {
      await s3.start();
    }
    await media.delete('pictures/t.thumb.webp');
    expect((await app.inject({ url: '/m/pictures/t.thumb.webp' })).statusCode).toBe(404);
    await app.close();
  });

  it("sweeps what a crash left in the bucket's incoming folder once it is old enough", async () => {
    const { media, settings } = await open();
    await outsider(settings).send(new PutObjectCommand({ Bucket: settings.bucket, Key: `${settings.prefix}.incoming/left-by-a-crash`, Body: 'x' }));
    expect(await media.sweepTemporary(60_000)).toBe(0);
    expect(await keysUnder(settings, '.incoming/')).toEqual([`${settings.prefix}.incoming/left-by-a-crash`]);
    expect(await media.sweepTemporary(-1000)).toBe(1);
    expect(await keysUnder(settings, '')).toEqual([]);
  });
});
