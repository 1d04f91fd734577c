import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { albumMessages, pictureMessages, RESUMABLE_ABANDONED_MS, resumableMessages } from '@site/contracts';
import { resumableUploads } from '../../src/areas/pictures/pictures.resumable.ts';
import { drainJobs } from '../../src/areas/pictures/pictures.worker.ts';
import { callerFor, createUser, databases, emptyMediaFolder, storedFiles, useListeningServer, useTestServer } from '../helpers.ts';
import { filesUnder, jpegWithExif, png, tempMediaDir } from './pictures.fixtures.ts';

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * One tus request over a real socket. With `cutAfter`, the body is declared whole (Content-Length)
 * but only its first `cutAfter` bytes are sent before the connection drops, as a phone losing its
 * network mid-upload does.
 */
function request(base: string, method: string, url: string, headers: Record<string, string>, body?: Buffer, cutAfter?: number): Promise<Answer | 'cut'> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(url, base),
      { method, agent: false, headers: { 'tus-resumable': '1.0.0', ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    if (cutAfter === undefined) {
      req.on('error', reject);
      req.end(body);
      return;
    }
    req.on('error', () => resolve('cut'));
    req.write(body!.subarray(0, cutAfter), () => setTimeout(() => req.destroy(), 300));
  });
}

const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

describe.each(databases)('resumable uploads, tus 1.0.0 (%s)', (kind) => {
  const mediaDir = tempMediaDir();
  const s = useTestServer(kind, { MEDIA_DIR: mediaDir, MEDIA_MAX_BYTES: String(300 * 1024) });
  const listening = useListeningServer(s);
  afterEach(() => drainJobs(s.deps));
  beforeEach(() => emptyMediaFolder(s.deps, 'pictures'));
  const resumableDir = path.join(mediaDir, '.tmp', 'resumable');
  const parts = () => filesUnder(resumableDir);

  async function member(name: string, level: 1 | 2 | 3) {
    const user = await createUser(s.deps, name, level);
    const { token, tokenHash } = await s.deps.sessions.create(user.id);
    return { user, cookie: `sid=${token}`, call: callerFor(s.deps, user, tokenHash) };
  }
  const send = async (method: string, url: string, headers: Record<string, string>, body?: Buffer) => {
    const answer = await request(listening.main, method, url, headers, body);
    if (answer === 'cut') throw new Error('not cut');
    return answer;
  };
  const create = (collection: string, headers: Record<string, string>, length: number, fields: Record<string, string>) =>
    send('POST', collection, { ...headers, 'upload-length': String(length), 'upload-metadata': metadata(fields) });
  const patch = (url: string, headers: Record<string, string>, offset: number, bytes: Buffer) =>
    send('PATCH', url, { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, bytes);
  const offsetOf = async (url: string, headers: Record<string, string>) => {
    const head = await send('HEAD', url, headers);
    expect(head.status).toBe(200);
    return Number(head.headers['upload-offset']);
  };

  it('creates, takes a PATCH cut by the network, says the offset, takes the rest and stores the picture through the pipeline', async () => {
    const family = await member('family', 2);
    const auth = { cookie: family.cookie };
    const photo = await jpegWithExif('2019:05:04 12:00:00', { width: 900, height: 700 });
    const created = await create('/uploads/', auth, photo.length, { caption: 'Garden', date: '', filename: 'garden.jpg' });
    expect(created.status).toBe(201);
    const url = created.headers.location ?? '';
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}$/);
    expect(await offsetOf(url, auth)).toBe(0);

    // The first PATCH carries the whole file but the connection drops after half of it.
    const half = Math.floor(photo.length / 2);
    expect(await request(listening.main, 'PATCH', url, { ...auth, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, photo, half)).toBe('cut');
    const offset = await offsetOf(url, auth);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(half);
    // A PATCH from the wrong offset is refused (409), nothing changes.
    expect((await patch(url, auth, offset + 1, photo.subarray(offset + 1))).status).toBe(409);

    const done = await patch(url, auth, offset, photo.subarray(offset));
    expect(done.status).toBe(200);
    expect(done.headers['upload-offset']).toBe(String(photo.length));
    const reply = JSON.parse(done.body) as { target: string; desc: string; uploaded: string; pending: boolean; message: string; duplicate: boolean };
    expect(reply).toMatchObject({ desc: 'Garden', uploaded: '2019-05-04', pending: false, message: 'Uploaded', duplicate: false, fileType: 'jpg' });
    // The original is the bytes sent, byte for byte; nothing of the upload is left to resume.
    const original = await s.app.inject({ method: 'GET', url: `/private/pictures/${reply.target}`, headers: auth });
    expect(original.rawPayload.equals(photo)).toBe(true);
    expect(await storedFiles(s.deps, 'pictures')).toContain(reply.target);
    expect(parts()).toEqual([]);
    expect((await send('HEAD', url, auth)).status).toBe(404);
    await drainJobs(s.deps);
    const page = await family.call.pictures.page({ type: 'month', index: 0 });
    expect(page.pictures.map((p) => p.id)).toEqual([(reply as unknown as { id: number }).id]);
  });

  it('dedupes by content as a one-request upload does, and a friend waits for approval', async () => {
    const friend = await member('friend', 1);
    const auth = { cookie: friend.cookie };
    const data = await png({ width: 120, height: 80 }, '#123456');
    const first = await create('/uploads/', auth, data.length, { caption: 'One', date: '2024' });
    const firstDone = JSON.parse((await patch(first.headers.location ?? '', auth, 0, data)).body) as { pending: boolean; message: string };
    expect(firstDone).toMatchObject({ pending: true, message: pictureMessages.pendingNote });
    const again = await create('/uploads/', auth, data.length, { caption: 'Two', date: '2024' });
    const againDone = await patch(again.headers.location ?? '', auth, 0, data);
    expect(againDone.status).toBe(200);
    expect(JSON.parse(againDone.body)).toMatchObject({ duplicate: true, message: pictureMessages.duplicate });
    expect((await storedFiles(s.deps, 'pictures')).filter((f) => !f.endsWith('.webp'))).toHaveLength(1);
    expect(parts()).toEqual([]);
  });

  it("is its maker's: another member and a guest link get 404, signed out gets 401", async () => {
    const owner = await member('owner', 3);
    const other = await member('other', 2);
    const data = await png({ width: 50, height: 50 }, '#654321');
    const created = await create('/uploads/', { cookie: owner.cookie }, data.length, { caption: 'Mine' });
    const url = created.headers.location ?? '';
    const id = url.split('/').pop() ?? '';
    await patch(url, { cookie: owner.cookie }, 0, data.subarray(0, 100)).then((r) => expect(r.status).toBe(204));

    for (const method of ['HEAD', 'DELETE'] as const) expect((await send(method, url, { cookie: other.cookie })).status).toBe(404);
    const stranger = await patch(url, { cookie: other.cookie }, 100, data.subarray(100));
    expect([stranger.status, JSON.parse(stranger.body)]).toEqual([404, { message: resumableMessages.notFound }]);
    const link = (await owner.call.shares.createUpload({})).url.split('/').pop() ?? '';
    expect((await send('HEAD', `/api/shared/${link}/uploads/${id}`, {})).status).toBe(404);
    expect((await patch(`/api/shared/${link}/uploads/${id}`, {}, 100, data.subarray(100))).status).toBe(404);
    // Signed out: the permission table's 401, before anything is looked up.
    expect((await send('HEAD', url, {})).status).toBe(401);
    expect((await create('/uploads/', {}, data.length, {})).status).toBe(401);
    expect((await patch(url, {}, 100, data.subarray(100))).status).toBe(401);
    // Still the maker's, untouched at 100 bytes.
    expect(await offsetOf(url, { cookie: owner.cookie })).toBe(100);
    expect((await send('DELETE', url, { cookie: owner.cookie })).status).toBe(204);
    expect(parts()).toEqual([]);
  });

  it('refuses an Upload-Length over the cap at creation (413) and keeps nothing', async () => {
    const family = await member('family', 2);
    const over = await create('/uploads/', { cookie: family.cookie }, 300 * 1024 + 1, { caption: 'Big' });
    expect([over.status, JSON.parse(over.body)]).toEqual([413, { message: pictureMessages.tooBig('300 KiB') }]);
    const noLength = await send('POST', '/uploads/', { cookie: family.cookie, 'upload-defer-length': '1' });
    expect([noLength.status, JSON.parse(noLength.body)]).toEqual([400, { message: resumableMessages.lengthNeeded }]);
    expect(parts()).toEqual([]);
  });

  it('takes no byte beyond the Upload-Length: a PATCH declaring more, or sending more without a length, is 413; the upload goes on', async () => {
    const family = await member('family', 2);
    const auth = { cookie: family.cookie };
    const image = await png({ width: 120, height: 90 }, '#3366cc');
    const created = await create('/uploads/', auth, image.length, { caption: 'Exact' });
    const url = created.headers.location ?? '';
    const longer = Buffer.concat([image, Buffer.from('ten bytes!')]);
    expect((await patch(url, auth, 0, longer)).status).toBe(413);
    expect(await offsetOf(url, auth)).toBe(0);
    // Chunked (no Content-Length): the bytes are counted as they come and the overflow refused.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(new URL(url, listening.main), {
        method: 'PATCH',
        agent: false,
        headers: { ...auth, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(longer);
    });
    expect(chunked).toBe(413);
    const offset = await offsetOf(url, auth);
    expect(offset).toBeLessThan(image.length);
    const done = await patch(url, auth, offset, image.subarray(offset));
    expect(done.status).toBe(200);
    expect((JSON.parse(done.body) as { desc: string }).desc).toBe('Exact');
    expect(parts()).toEqual([]);
  });

  it('refuses bytes that are not a picture when whole (415) and keeps nothing', async () => {
    const family = await member('family', 2);
    const text = Buffer.from('just some notes, not a picture\n'.repeat(20));
    const created = await create('/uploads/', { cookie: family.cookie }, text.length, { caption: 'Notes' });
    const done = await patch(created.headers.location ?? '', { cookie: family.cookie }, 0, text);
    expect(done.status).toBe(415);
    expect((JSON.parse(done.body) as { message: string }).message).toMatch(/^The file's contents are text, not a picture or video/);
    expect(parts()).toEqual([]);
    expect(filesUnder(path.join(mediaDir, '.tmp')).filter((f) => !f.startsWith('resumable'))).toEqual([]);
  });

  it('a guest link uploads resumably: pending, named, counted, in the album; another link gets 404', async () => {
    const owner = await member('owner', 3);
    const { id: album } = await owner.call.albums.create({ name: 'Party', private: false });
    const link = (await owner.call.shares.createUpload({ albumId: album })).url.split('/').pop() ?? '';
    const other = (await owner.call.shares.createUpload({})).url.split('/').pop() ?? '';
    const data = await png({ width: 64, height: 48 }, '#abcdef');
    const created = await create(`/api/shared/${link}/uploads/`, {}, data.length, { name: 'Aunt May', caption: 'Cake' });
    expect(created.status).toBe(201);
    const url = created.headers.location ?? '';
    expect(url).toMatch(new RegExp(`^/api/shared/${link}/uploads/[0-9a-f]{32}$`));
    await patch(url, {}, 0, data.subarray(0, 200)).then((r) => expect(r.status).toBe(204));
    const id = url.split('/').pop() ?? '';
    expect((await send('HEAD', `/api/shared/${other}/uploads/${id}`, {})).status).toBe(404);
    expect((await send('HEAD', `/uploads/${id}`, { cookie: owner.cookie })).status).toBe(404);
    const done = await patch(url, {}, 200, data.subarray(200));
    expect([done.status, JSON.parse(done.body)]).toEqual([200, { duplicate: false, message: albumMessages.guestUploaded }]);
    const pending = await owner.call.pictures.pending();
    expect(pending).toHaveLength(1);
    expect(JSON.stringify(pending[0])).toContain('Aunt May');
    const listed = await owner.call.shares.list({ albumId: album });
    expect(listed.find((l) => l.kind === 'upload')).toMatchObject({ uploads: 1, uploadBytes: data.length });
    // In the link's album, shown there once approved.
    await owner.call.pictures.approve({ id: (pending[0] as { id: number }).id });
    expect(JSON.stringify(await owner.call.albums.get({ id: album }))).toContain('Cake');
  });

  it('removes an upload left untouched for a day (the sweep), and not before', async () => {
    const family = await member('family', 2);
    const auth = { cookie: family.cookie };
    const data = await png({ width: 40, height: 40 }, '#0f0f0f');
    const created = await create('/uploads/', auth, data.length, { caption: 'Later' });
    const url = created.headers.location ?? '';
    await patch(url, auth, 0, data.subarray(0, 50));
    const sweep = resumableUploads(s.deps).sweep;
    expect(await sweep(Date.now() + RESUMABLE_ABANDONED_MS - 60_000)).toBe(0);
    expect(await offsetOf(url, auth)).toBe(50);
    // The file times say when it was last written: a day and a minute ago, it goes.
    const old = new Date(Date.now() - RESUMABLE_ABANDONED_MS - 60_000);
    for (const name of fs.readdirSync(resumableDir)) fs.utimesSync(path.join(resumableDir, name), old, old);
    expect(await sweep()).toBe(1);
    expect(parts()).toEqual([]);
    expect((await send('HEAD', url, auth)).status).toBe(404);
  });
});
