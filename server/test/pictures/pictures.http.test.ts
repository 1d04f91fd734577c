import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { drainJobs } from '../../src/areas/pictures/pictures.worker.ts';
import { cookieFor, databases, emptyMediaFolder, storedFiles, useTestServer } from '../helpers.ts';
import { filesUnder, jpegWithExif, mp4, multipart, png, SVG_WITH_SCRIPT, tempMediaDir, uploadVia } from './pictures.fixtures.ts';

type Uploaded = { id: number; target: string; pending: boolean; uploaded: string; thumb: string; message: string };

describe.each(databases)('pictures over HTTP (%s)', (kind) => {
  const mediaDir = tempMediaDir();
  const s = useTestServer(kind, { MEDIA_DIR: mediaDir, MEDIA_MAX_BYTES: String(300 * 1024) });
  // The app's own worker may still be making a thumbnail of the last test's upload: let it finish.
  afterEach(() => drainJobs(s.deps));
  beforeEach(() => emptyMediaFolder(s.deps, 'pictures'));
  const stored = () => storedFiles(s.deps, 'pictures');
  const temp = () => filesUnder(path.join(mediaDir, '.tmp'));
  const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
    s.app.inject({ method: 'GET', url, headers: { ...headers, ...(cookie ? { cookie } : {}) } });

  it('uploads a JPEG, reads its EXIF date, makes a rotated WebP thumbnail and serves both', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const res = await uploadVia(s.app, cookie, { name: 'holiday.jpg', data: await jpegWithExif('2021:07:15 10:20:30') }, { caption: 'Holiday', date: '' });
    expect(res.statusCode).toBe(200);
    const body = res.json<Uploaded>();
    expect(body).toMatchObject({ pending: false, uploaded: '2021-07-15', thumb: 'pending', desc: 'Holiday', fileType: 'jpg' });
    expect(body.target).toMatch(/^[0-9a-f]{32}\.jpg$/);

    const stem = body.target.slice(0, 32);
    // The app's own worker may already have made the thumbnail (the upload wakes it); drain the rest.
    expect(await drainJobs(s.deps)).toBeGreaterThanOrEqual(0);
    const page = await s.app.inject({ method: 'GET', url: `/trpc/pictures.page?input=${encodeURIComponent(JSON.stringify({ type: 'month', index: 0 }))}`, headers: { cookie } });
    const picture = page.json<{ result: { data: { label: string; pictures: { thumb: string; thumbWidth: number; thumbHeight: number }[] } } }>().result.data;
    expect(picture.label).toBe('July 2021');
    // Orientation 6 turns the 600x400 photo upright: the thumbnail is taller than wide.
    expect(picture.pictures[0]).toMatchObject({ thumb: 'ready', thumbWidth: 267, thumbHeight: 400 });

    const thumb = await get(`/private/pictures/${stem}.thumb.webp`, cookie);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.headers['cache-control']).toContain('immutable');
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 267, height: 400 });

    const original = await get(`/private/pictures/${body.target}`, cookie);
    expect([original.statusCode, original.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect(await stored()).toEqual([body.target, `${stem}.thumb.webp`].sort());
    expect(temp()).toEqual([]);
  });

  it('serves byte ranges of a video (206) and makes its poster with ffmpeg', async () => {
    const cookie = await cookieFor(s.deps, 3);
    const video = mp4();
    const body = (await uploadVia(s.app, cookie, { name: 'clip.mp4', data: video }, { caption: 'Clip', date: '2022-03-xx' })).json<Uploaded>();
    expect(body).toMatchObject({ fileType: 'mp4', uploaded: '2022-03-xx' });
    const ranged = await get(`/private/pictures/${body.target}`, cookie, { range: 'bytes=100-199' });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 100-199/${video.length}`);
    expect(ranged.headers['content-type']).toBe('video/mp4');
    expect(ranged.rawPayload.equals(video.subarray(100, 200))).toBe(true);
    const beyond = await get(`/private/pictures/${body.target}`, cookie, { range: `bytes=${video.length + 10}-` });
    expect(beyond.statusCode).toBe(416);
    await drainJobs(s.deps);
    const stem = body.target.slice(0, 32);
    const poster = await get(`/private/pictures/${stem}.poster.webp`, cookie);
    expect(poster.statusCode).toBe(200);
    expect(await sharp(poster.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 160, height: 120 });
  });

  it('takes the type from the bytes: a PNG named .jpg is a PNG, a text file named .jpg is refused', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const renamed = await uploadVia(s.app, cookie, { name: 'really.jpg', data: await png() }, { caption: 'x', date: '2020' });
    expect(renamed.json()).toMatchObject({ fileType: 'png', uploaded: '2020-xx-xx' });
    const text = await uploadVia(s.app, cookie, { name: 'notes.jpg', data: Buffer.from('just some notes\n') }, { caption: 'x', date: '2020' });
    expect(text.statusCode).toBe(415);
    expect(text.json<{ message: string }>().message).toMatch(/^The file's contents are text, not a picture or video/);
    const zip = await uploadVia(s.app, cookie, { name: 'a.png', data: Buffer.from('PK\u0003\u0004\u0014\u0000\u0000\u0000\u0008\u0000') }, {});
    expect(zip.statusCode).toBe(415);
    expect((await stored()).filter((f) => !f.endsWith('.webp'))).toHaveLength(1);
    // The accepted PNG's thumbnail is written through a temporary file too: let that work finish.
    await drainJobs(s.deps);
    expect(temp()).toEqual([]);
  });

  it('refuses no file, a bad date, a bad caption, two files and a file over MEDIA_MAX_BYTES, leaving nothing', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const image = { name: 'a.png', data: await png() };
    const cases = [
      [await uploadVia(s.app, cookie, null, { caption: 'x', date: '2020' }), 400, 'Choose a file to upload'],
      [await uploadVia(s.app, cookie, { name: 'empty.png', data: Buffer.alloc(0) }, {}), 400, 'Choose a file to upload'],
      [await uploadVia(s.app, cookie, image, { date: '2023-02-29' }), 400, /^Date must be written year-month-day/],
      [await uploadVia(s.app, cookie, image, { date: 'last summer' }), 400, /^Date must be written/],
      [await uploadVia(s.app, cookie, image, { caption: 'a\u0000b' }), 400, 'Caption may not contain control characters'],
      [await uploadVia(s.app, cookie, { name: 'big.png', data: Buffer.alloc(400 * 1024, 1) }, {}), 413, /^The file is larger than the upload limit of 300 KiB/],
    ] as const;
    for (const [res, status, message] of cases) {
      expect(res.statusCode).toBe(status);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    const two = multipart(image, {}, [image]);
    const both = await s.app.inject({ method: 'POST', url: '/api/pictures/upload', headers: { cookie, 'content-type': two.contentType }, payload: two.payload });
    expect([both.statusCode, both.json()]).toEqual([400, { message: 'Send one file per upload' }]);
    const json = await s.app.inject({ method: 'POST', url: '/api/pictures/upload', headers: { cookie, 'content-type': 'application/json' }, payload: '{}' });
    expect(json.statusCode).toBe(415);
    expect(await stored()).toEqual([]);
    expect(temp()).toEqual([]);
    const rows = await s.db.selectFrom('pictures').select('id').execute();
    expect(rows).toEqual([]);
  });

  it('leaves no file and no row when the upload is cut off', async () => {
    const cookie = await cookieFor(s.deps, 2);
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = s.app.server.address() as AddressInfo;
    const body = multipart({ name: 'a.png', data: Buffer.alloc(200 * 1024, 7) }, { caption: 'x' });
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/pictures/upload',
        headers: { cookie, 'content-type': body.contentType, 'content-length': body.payload.length },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write(body.payload.subarray(0, 100 * 1024), () => {
        // Cut the connection once the server has started writing the temporary file.
        const waitForTemp = () => (temp().length > 0 ? req.destroy() : setTimeout(waitForTemp, 20));
        waitForTemp();
      });
    });
    // The server notices the broken body and cleans up; wait until it has.
    for (let i = 0; i < 50 && temp().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(temp()).toEqual([]);
    expect(await stored()).toEqual([]);
    expect(await s.db.selectFrom('pictures').select('id').execute()).toEqual([]);
  });

  it('serves only to members who may see the picture; refuses traversal and unknown names', async () => {
    const friend = await cookieFor(s.deps, 1, 'friend');
    const stranger = await cookieFor(s.deps, 1, 'stranger');
    const pendingAccount = await cookieFor(s.deps, 0);
    const admin = await cookieFor(s.deps, 3);
    const body = (await uploadVia(s.app, friend, { name: 'a.png', data: await png() }, { caption: 'mine', date: '2020' })).json<Uploaded>();
    expect(body.pending).toBe(true);
    expect(body.message).toMatch(/approves/);
    const url = `/private/pictures/${body.target}`;
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, pendingAccount)).statusCode).toBe(403);
    expect((await get(url, stranger)).statusCode).toBe(404);
    expect((await get(url, friend)).statusCode).toBe(200);
    expect((await get(url, admin)).statusCode).toBe(200);
    expect((await uploadVia(s.app, undefined, { name: 'a.png', data: await png() })).statusCode).toBe(401);
    expect((await uploadVia(s.app, pendingAccount, { name: 'a.png', data: await png() })).statusCode).toBe(403);
    for (const bad of [
      '/private/pictures/..%2F..%2Fetc%2Fpasswd',
      '/private/pictures/%2e%2e%2fpictures%2f' + body.target,
      '/private/pictures/..%5c' + body.target,
      `/private/pictures/${body.target.replace('.png', '.jpg')}`,
      `/private/pictures/${body.target}%00.png`,
      '/private/pictures/.tmp',
    ]) {
      expect((await get(bad, admin)).statusCode, bad).toBe(404);
    }
  });

  it('serves SVG with a sandboxing Content-Security-Policy', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const body = (await uploadVia(s.app, cookie, { name: 'x.svg', data: SVG_WITH_SCRIPT }, { date: '2020' })).json<Uploaded>();
    expect(body).toMatchObject({ fileType: 'svg' });
    const res = await get(`/private/pictures/${body.target}`, cookie);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('deleting a picture removes its files', async () => {
    const cookie = await cookieFor(s.deps, 3);
    const body = (await uploadVia(s.app, cookie, { name: 'a.png', data: await png({ width: 2000, height: 1000 }) }, { date: '2020' })).json<Uploaded>();
    await drainJobs(s.deps);
    const stem = body.target.slice(0, 32);
    expect(await stored()).toEqual([`${stem}.display.webp`, body.target, `${stem}.thumb.webp`].sort());
    const res = await s.app.inject({
      method: 'POST',
      url: '/trpc/pictures.delete',
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ id: body.id }),
    });
    expect(res.statusCode).toBe(200);
    expect(await stored()).toEqual([]);
  });
});
