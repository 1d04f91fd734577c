import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UploadAnswer, UploadReply } from '@site/contracts';
import { drainJobs } from '../../src/areas/pictures/pictures.worker.ts';
import { callerFor, cookieFor, createUser, databases, emptyMediaFolder, storedFiles, useTestServer } from '../helpers.ts';
import { heic, video } from './date-fixtures.ts';
import { jpegWithExif, png, tempMediaDir, uploadVia } from './pictures.fixtures.ts';

type Page = { result: { data: { pictures: { id: number; thumb: string; display: boolean; poster: boolean; previewNeeds: string | null }[] } } };

describe.each(databases)('pictures: formats, damaged files and duplicates (%s)', (kind) => {
  const mediaDir = tempMediaDir();
  const s = useTestServer(kind, { MEDIA_DIR: mediaDir });
  afterEach(() => drainJobs(s.deps));
  beforeEach(() => emptyMediaFolder(s.deps, 'pictures'));
  const stored = () => storedFiles(s.deps, 'pictures');
  const get = (url: string, cookie: string) => s.app.inject({ method: 'GET', url, headers: { cookie } });
  const pictureOf = async (cookie: string, id: number) => {
    const res = await get(`/trpc/pictures.page?input=${encodeURIComponent(JSON.stringify({ type: 500, index: 0 }))}`, cookie);
    return res.json<Page>().result.data.pictures.find((p) => p.id === id);
  };

  it('takes an iPhone HEIC: the gallery shows a display WebP made on upload, the original downloads byte for byte', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const bytes = await heic({ date: '2023:06:01 12:00:00', width: 640, height: 480 });
    const res = await uploadVia(s.app, cookie, { name: 'IMG_0001.HEIC', data: bytes, type: 'image/heic' }, { caption: 'Phone', date: '' });
    expect(res.statusCode).toBe(200);
    const body = res.json<UploadAnswer>();
    expect(body).toMatchObject({ fileType: 'heic', kind: 'image', uploaded: '2023-06-01', duplicate: false });
    await drainJobs(s.deps);
    expect(await pictureOf(cookie, body.id)).toMatchObject({ thumb: 'ready', display: true, previewNeeds: null });
    const stem = body.target.slice(0, 32);
    const display = await get(`/private/pictures/${stem}.display.webp`, cookie);
    expect(await sharp(display.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 640, height: 480 });
    const thumb = await get(`/private/pictures/${stem}.thumb.webp`, cookie);
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 400, height: 300 });
    // The thumbnail is the photo's own colour (#2a6fb0), not a grey placeholder.
    const { dominant } = await sharp(thumb.rawPayload).stats();
    expect(Math.abs(dominant.b - 0xb0)).toBeLessThan(24);
    const original = await get(`/private/pictures/${body.target}`, cookie);
    expect(original.headers['content-type']).toBe('image/heic');
    expect(original.rawPayload.equals(bytes)).toBe(true);
  });

  it('takes WebP, AVIF, TIFF, M4V and 3GP, with a thumbnail for each and a display WebP where browsers need one', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const base = () => sharp({ create: { width: 1800, height: 1200, channels: 3, background: '#556677' } });
    const files = [
      { name: 'a.webp', data: await base().webp().toBuffer(), fileType: 'webp', large: 'display' },
      { name: 'a.avif', data: await base().avif({ effort: 0 }).toBuffer(), fileType: 'avif', large: 'display' },
      { name: 'a.tif', data: await base().resize(300, 200).tiff().toBuffer(), fileType: 'tif', large: 'display' },
      { name: 'a.m4v', data: video('m4v', {}, ['-f', 'mp4', '-brand', 'M4V ']), fileType: 'm4v', large: 'poster' },
      { name: 'a.3gp', data: video('3gp', {}), fileType: '3gp', large: 'poster' },
    ];
    for (const file of files) {
      const res = await uploadVia(s.app, cookie, { name: file.name, data: file.data }, { date: '2020' });
      expect(res.statusCode, file.name).toBe(200);
      const body = res.json<UploadAnswer>();
      expect(body.fileType, file.name).toBe(file.fileType);
      await drainJobs(s.deps);
      const picture = await pictureOf(cookie, body.id);
      expect(picture, file.name).toMatchObject({ thumb: 'ready', [file.large]: true });
    }
  }, 120_000);

  it('says what to install when a preview needs a program the server lacks, and keeps the upload', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const clip = video('mov', {});
    const saved = process.env.PATH;
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-programs-'));
    try {
      process.env.PATH = empty;
      const res = await uploadVia(s.app, cookie, { name: 'clip.mov', data: clip }, { date: '2021' });
      expect(res.statusCode).toBe(200);
      await drainJobs(s.deps);
      const body = res.json<UploadAnswer>();
      expect(await pictureOf(cookie, body.id)).toMatchObject({ thumb: 'none', previewNeeds: 'ffmpeg' });
      expect(await stored()).toEqual([body.target]);
    } finally {
      process.env.PATH = saved;
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('makes a thumbnail of a truncated JPEG, and gives a file with nothing decodable up at once, not after retries', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#000000', noise: { type: 'gaussian', mean: 120, sigma: 40 } } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const truncated = photo.subarray(0, Math.floor(photo.length * 0.7));
    const cut = (await uploadVia(s.app, cookie, { name: 'cut.jpg', data: truncated }, { date: '2020' })).json<UploadAnswer>();
    // A JPEG header with nothing decodable after it.
    const junk = Buffer.concat([photo.subarray(0, 4), Buffer.alloc(20_000, 0x5a)]);
    const broken = (await uploadVia(s.app, cookie, { name: 'broken.jpg', data: junk }, { date: '2020' })).json<UploadAnswer>();
    expect(broken.fileType).toBe('jpg');
    // One run each (this test's or the app's own worker's): a retry would wait 30 s in the queue,
    // past this bound, and leave its job there.
    await drainJobs(s.deps, 20_000);
    expect(await s.db.selectFrom('picture_jobs').select(['id', 'attempts', 'last_error']).execute()).toEqual([]);
    expect(await pictureOf(cookie, cut.id)).toMatchObject({ thumb: 'ready' });
    expect(await pictureOf(cookie, broken.id)).toMatchObject({ thumb: 'none', previewNeeds: null });
  });

  it('stores the same bytes once: a second upload says "Already in the gallery" and links to the picture', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const bytes = await jpegWithExif('2019:04:05 06:07:08');
    const first = (await uploadVia(s.app, cookie, { name: 'a.jpg', data: bytes }, { caption: 'First', date: '' })).json<UploadAnswer>();
    const again = await uploadVia(s.app, cookie, { name: 'copy of a.jpg', data: bytes }, { caption: 'Again', date: '2001' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: first.id, duplicate: true, message: 'Already in the gallery', desc: 'First', link: `/personal/pictures/month/0?picture=${first.id}` });
    // Other bytes (a different picture) are stored, and the link names the right month page.
    await uploadVia(s.app, cookie, { name: 'b.png', data: await png() }, { date: '2024-01-01' });
    const third = (await uploadVia(s.app, cookie, { name: 'a.jpg', data: bytes }, {})).json<UploadAnswer>();
    expect(third.link).toBe(`/personal/pictures/month/1?picture=${first.id}`);
    await drainJobs(s.deps);
    expect((await stored()).filter((f) => !f.endsWith('.webp'))).toHaveLength(2);
    expect(await s.db.selectFrom('pictures').select('id').execute()).toHaveLength(2);
  });

  it('never queues the same bytes twice for approval, even when they arrive at once', async () => {
    const friends = await Promise.all([cookieFor(s.deps, 1, 'ann'), cookieFor(s.deps, 1, 'bob'), cookieFor(s.deps, 1, 'cy')]);
    const bytes = await png({ width: 320, height: 240 }, '#123456');
    const answers = await Promise.all(friends.map((cookie) => uploadVia(s.app, cookie, { name: 'same.png', data: bytes }, { date: '2022' })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const bodies = answers.map((a) => a.json<UploadReply>());
    expect(bodies.filter((b) => b.duplicate)).toHaveLength(2);
    // The first stored it; the others are told only that those bytes wait for approval.
    const stored = bodies.filter((b): b is UploadAnswer => !b.duplicate);
    expect(stored).toHaveLength(1);
    for (const b of bodies.filter((b) => b.duplicate)) expect(b).toEqual({ duplicate: true, pending: true, message: 'Already uploaded, waiting for approval', link: null });
    const admin = await createUser(s.deps, 'owner', 3);
    const queue = await callerFor(s.deps, admin).pictures.pending();
    expect(queue.map((p) => p.id)).toEqual([stored[0]?.id]);
    expect(await callerFor(s.deps, admin).pictures.pendingCount()).toEqual({ count: 1 });
  });

  it("answers a duplicate of another member's picture waiting for approval with nothing of its content", async () => {
    const ann = await cookieFor(s.deps, 1, 'ann');
    const bob = await cookieFor(s.deps, 1, 'bob');
    const bytes = await png({ width: 320, height: 240 }, '#654321');
    const first = (await uploadVia(s.app, ann, { name: 'secret.png', data: bytes }, { caption: 'Ann at the doctor', date: '2023-02-03' })).json<UploadAnswer>();
    expect(first.pending).toBe(true);
    const again = await uploadVia(s.app, bob, { name: 'mine.png', data: bytes }, { caption: 'Bob', date: '2020' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ duplicate: true, pending: true, message: 'Already uploaded, waiting for approval', link: null });
    expect(again.body).not.toContain('doctor');
    expect(again.body).not.toContain('ann');
    expect(again.body).not.toContain(first.target.slice(0, 32));
    // Its own uploader, and an admin, still get the picture and its link.
    expect((await uploadVia(s.app, ann, { name: 'again.png', data: bytes }, {})).json()).toMatchObject({ id: first.id, duplicate: true, link: expect.stringContaining(`picture=${first.id}`) });
    const admin = await cookieFor(s.deps, 3, 'owner');
    expect((await uploadVia(s.app, admin, { name: 'again.png', data: bytes }, {})).json()).toMatchObject({ id: first.id, duplicate: true, message: 'Already in the gallery' });
  });

  it('never lets the browser keep a pending picture or an original; approved previews stay cacheable', async () => {
    const friend = await cookieFor(s.deps, 1, 'friend');
    const admin = await createUser(s.deps, 'owner', 3);
    const body = (await uploadVia(s.app, friend, { name: 'a.jpg', data: await jpegWithExif() }, { date: '2021' })).json<UploadAnswer>();
    await drainJobs(s.deps);
    const stem = body.target.slice(0, 32);
    const cacheOf = async (file: string) => {
      const res = await get(`/private/pictures/${file}`, friend);
      expect(res.statusCode, file).toBe(200);
      return res.headers['cache-control'];
    };
    expect(await cacheOf(body.target)).toBe('private, no-store');
    expect(await cacheOf(`${stem}.thumb.webp`)).toBe('private, no-store');
    await callerFor(s.deps, admin).pictures.approve({ id: body.id });
    expect(await cacheOf(body.target)).toBe('private, no-store');
    expect(await cacheOf(`${stem}.thumb.webp`)).toBe('private, max-age=31536000, immutable');
  });

  it('takes TIFFs as ImageMagick, libvips and scanners write them: big-endian, the directory after the pixels', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pictures-tiff-'));
    try {
      // A photo-like picture whose pixels are far more than the first 4,100 bytes.
      const source = path.join(dir, 'source.tif');
      await sharp({ create: { width: 900, height: 600, channels: 3, background: '#000000', noise: { type: 'gaussian', mean: 120, sigma: 50 } } })
        .tiff({ compression: 'none' })
        .toFile(source);
      const tool = (program: string, args: string[]) => execFileSync(program, args, { cwd: dir, stdio: 'pipe' });
      tool('tiffcp', ['-B', '-c', 'none', 'source.tif', 'big-endian.tif']);
      tool('tiffcp', ['-B', '-c', 'lzw', 'source.tif', 'big-endian-lzw.tif']);
      tool('vips', ['copy', 'source.tif', 'vips.tif[compression=deflate]']);
      tool('vips', ['copy', 'source.tif', 'vips-bigtiff.tif[bigtiff]']);
      for (const name of ['big-endian.tif', 'big-endian-lzw.tif', 'vips.tif', 'vips-bigtiff.tif']) {
        const data = fs.readFileSync(path.join(dir, name));
        if (name.startsWith('big-endian')) {
          // What the old check missed: "MM", and the first directory's offset beyond 4,100 bytes.
          expect(data.toString('latin1', 0, 2), name).toBe('MM');
          expect(data.readUInt32BE(4), name).toBeGreaterThan(4100);
        }
        const res = await uploadVia(s.app, cookie, { name, data }, { date: '2020' });
        expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
        const answer = res.json<UploadAnswer>();
        expect(answer.fileType, name).toBe('tif');
        await drainJobs(s.deps);
        expect(await pictureOf(cookie, answer.id), name).toMatchObject({ thumb: 'ready', display: true });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
