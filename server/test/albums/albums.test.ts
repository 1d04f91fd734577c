import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import exifr from 'exifr';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accessMessages, albumMessages, UPLOAD_LINK_MAX_BYTES, UPLOAD_LINK_MAX_FILES, type OpenShareReply, type PictureSocial } from '@site/contracts';
import { GUEST_AUTHOR } from '../../src/areas/albums/shares.service.ts';
import { drainJobs } from '../../src/areas/pictures/pictures.worker.ts';
import { hashToken } from '../../src/identity/token-hash.ts';
import { createDeps, type AppDeps } from '../../src/deps.ts';
import type { Listening } from '../../src/db/notifications.ts';
import { watchDatabaseChanges } from '../../src/watch-changes.ts';
import { callerFor, createTestDb, createUser, databases, testConfig, useTestServer, type TestDb } from '../helpers.ts';
import { filesUnder, multipart, png, tempMediaDir, uploadVia, type Upload } from '../pictures/pictures.fixtures.ts';

type Uploaded = { id: number; target: string };

const require = createRequire(import.meta.url);

describe.each(databases)('albums and links (%s)', (kind) => {
  const mediaDir = tempMediaDir();
  const s = useTestServer(kind, { MEDIA_DIR: mediaDir, LOGIN_MAX_FAILURES: '3', SIGNUP_MAX_PER_ADDRESS: '2' });
  afterEach(() => drainJobs(s.deps));
  beforeEach(() => fs.rmSync(path.join(mediaDir, 'pictures'), { recursive: true, force: true }));

  /** A member with a session cookie. */
  async function member(name: string, level: 1 | 2 | 3) {
    const user = await createUser(s.deps, name, level);
    const { token, tokenHash } = await s.deps.sessions.create(user.id);
    return { user, cookie: `sid=${token}`, call: callerFor(s.deps, user, tokenHash) };
  }
  let colour = 0;
  async function picture(cookie: string, caption = 'Beach'): Promise<Uploaded> {
    colour += 1;
    const res = await uploadVia(s.app, cookie, { name: 'a.png', data: await png(undefined, `#${(0x100000 + colour * 7919).toString(16).slice(-6)}`) }, { caption, date: '2024-07-15' });
    expect(res.statusCode).toBe(200);
    return res.json<Uploaded>();
  }
  const tokenOf = (url: string) => url.split('/').pop() ?? '';
  const get = (url: string, cookie?: string) => s.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const trpcPost = (proc: string, input: unknown) =>
    s.app.inject({ method: 'POST', url: `/trpc/${proc}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(input) });
  const openAsGuest = async (token: string, pass?: string) => {
    const res = await trpcPost('shares.open', pass ? { token, pass } : { token });
    return { status: res.statusCode, body: res.json<{ result?: { data: OpenShareReply }; error?: { message: string } }>() };
  };
  const guestUpload = (token: string, file: Upload | null, fields: Record<string, string>, ip = '10.0.0.1') => {
    const body = multipart(file, fields);
    return s.app.inject({ method: 'POST', url: `/api/shared/${token}/upload`, headers: { 'content-type': body.contentType }, payload: body.payload, remoteAddress: ip });
  };

  it('creates, lists, renames and deletes albums; a picture may be in many; deleting an album keeps the pictures', async () => {
    const owner = await member('owner', 3);
    const a = await picture(owner.cookie, 'One');
    const b = await picture(owner.cookie, 'Two');
    const { id: trip } = await owner.call.albums.create({ name: '  Trip  ', private: false });
    const { id: best } = await owner.call.albums.create({ name: 'Best', private: true });
    await owner.call.albums.addPictures({ albumId: trip, pictureIds: [a.id, b.id, a.id] });
    await owner.call.albums.addPictures({ albumId: best, pictureIds: [a.id] });
    // Adding again keeps one row.
    await owner.call.albums.addPictures({ albumId: trip, pictureIds: [a.id] });
    const got = await owner.call.albums.get({ id: trip });
    expect([got.name, got.pictures.map((p) => p.desc).sort(), got.pictureCount]).toEqual(['Trip', ['One', 'Two'], 2]);
    // Newest album first; each with its newest picture as its cover (same date: the later upload).
    expect((await owner.call.albums.list()).map((x) => [x.name, x.pictureCount, x.private, x.cover?.desc])).toEqual([
      ['Best', 1, true, 'One'],
      ['Trip', 2, false, 'Two'],
    ]);
    await owner.call.albums.removePictures({ albumId: trip, pictureIds: [b.id] });
    expect((await owner.call.albums.get({ id: trip })).pictures.map((p) => p.desc)).toEqual(['One']);
    await owner.call.albums.rename({ id: trip, name: 'Summer' });
    expect((await owner.call.albums.get({ id: trip })).name).toBe('Summer');
    await owner.call.albums.delete({ id: trip });
    await expect(owner.call.albums.get({ id: trip })).rejects.toThrow(albumMessages.notFound);
    const page = await owner.call.pictures.page({ type: 'month', index: 0 });
    expect(page.pictures.map((p) => p.desc).sort()).toEqual(['One', 'Two']);
    // Bad input: an empty name, an unknown picture (nothing added), an album that does not exist.
    await expect(owner.call.albums.create({ name: '   ', private: false })).rejects.toThrow('Album name may not be empty');
    await expect(owner.call.albums.addPictures({ albumId: best, pictureIds: [a.id, 999_999] })).rejects.toThrow(albumMessages.noSuchPicture);
    expect((await owner.call.albums.get({ id: best })).pictures.map((p) => p.id)).toEqual([a.id]);
    await expect(owner.call.albums.rename({ id: 999_999, name: 'X' })).rejects.toThrow(albumMessages.notFound);
  });

  it('keeps a private album its owner\u2019s alone on every path: list, get, changes, share, links', async () => {
    const owner = await member('owner', 3);
    const friend = await member('friend', 1);
    const family = await member('family', 2);
    const pic = await picture(owner.cookie);
    const { id: mine } = await friend.call.albums.create({ name: 'My secret', private: true });
    await friend.call.albums.addPictures({ albumId: mine, pictureIds: [pic.id] });
    const { id: shared } = await friend.call.albums.create({ name: 'For all', private: false });

    expect((await friend.call.albums.list()).map((a) => a.name)).toEqual(['For all', 'My secret']);
    for (const other of [owner, family]) {
      expect((await other.call.albums.list()).map((a) => a.name)).toEqual(['For all']);
      await expect(other.call.albums.get({ id: mine })).rejects.toThrow(albumMessages.notFound);
      await expect(other.call.albums.addPictures({ albumId: mine, pictureIds: [pic.id] })).rejects.toThrow(albumMessages.notFound);
      await expect(other.call.albums.removePictures({ albumId: mine, pictureIds: [pic.id] })).rejects.toThrow(albumMessages.notFound);
      await expect(other.call.albums.rename({ id: mine, name: 'Mine now' })).rejects.toThrow(albumMessages.notFound);
      await expect(other.call.albums.delete({ id: mine })).rejects.toThrow(albumMessages.notFound);
      await expect(other.call.shares.create({ albumId: mine })).rejects.toThrow(albumMessages.notFound);
      await expect(other.call.shares.list({ albumId: mine })).rejects.toThrow(albumMessages.notFound);
    }
    await expect(owner.call.shares.createUpload({ albumId: mine })).rejects.toThrow(albumMessages.notFound);
    // A family album: seen by all, changed by its owner or an admin, not by another member.
    expect((await family.call.albums.get({ id: shared })).mayChange).toBe(false);
    await expect(family.call.albums.rename({ id: shared, name: 'Ours' })).rejects.toThrow(albumMessages.notYours);
    await owner.call.albums.rename({ id: shared, name: 'Ours' });

    // The friend's own link to the private album: the admins' list names no private album it cannot see.
    const link = await friend.call.shares.create({ albumId: mine });
    expect((await friend.call.shares.list({ albumId: mine })).map((l) => l.albumName)).toEqual(['My secret']);
    expect((await owner.call.shares.active()).map((l) => [l.albumName, l.albumId, l.createdBy])).toEqual([['A private album', null, 'friend']]);
    expect((await friend.call.albums.get({ id: mine })).name).toBe('My secret');

    expect(link.url).toMatch(/\/shared\/[A-Za-z0-9_-]{22}$/);
  });

  it('names the albums that hold a picture, of those the member sees (a private album to its owner only)', async () => {
    const owner = await member('owner', 3);
    const friend = await member('friend', 1);
    const pic = await picture(owner.cookie);
    const other = await picture(owner.cookie, 'Other');
    const { id: mine } = await friend.call.albums.create({ name: 'My secret', private: true });
    const { id: family } = await owner.call.albums.create({ name: 'Family', private: false });
    const { id: empty } = await owner.call.albums.create({ name: 'Empty', private: false });
    await friend.call.albums.addPictures({ albumId: mine, pictureIds: [pic.id] });
    await owner.call.albums.addPictures({ albumId: family, pictureIds: [pic.id] });
    expect(await friend.call.albums.holding({ pictureId: pic.id })).toEqual([family, mine]);
    expect(await owner.call.albums.holding({ pictureId: pic.id })).toEqual([family]);
    expect(await owner.call.albums.holding({ pictureId: other.id })).toEqual([]);
    await owner.call.albums.addPictures({ albumId: empty, pictureIds: [other.id] });
    expect(await friend.call.albums.holding({ pictureId: other.id })).toEqual([empty]);
    await owner.call.albums.removePictures({ albumId: family, pictureIds: [pic.id] });
    expect(await owner.call.albums.holding({ pictureId: pic.id })).toEqual([]);
    await expect(owner.call.albums.holding({ pictureId: 0 })).rejects.toThrow(albumMessages.noSuchPicture);
  });

  it('a view link opens exactly the album to a guest, with its files; the token is 128 bits and stored only as its hash', async () => {
    const owner = await member('owner', 3);
    const inAlbum = await picture(owner.cookie, 'In the album');
    const notInAlbum = await picture(owner.cookie, 'Not in the album');
    await drainJobs(s.deps);
    const { id } = await owner.call.albums.create({ name: 'Trip', private: false });
    await owner.call.albums.addPictures({ albumId: id, pictureIds: [inAlbum.id] });
    const link = await owner.call.shares.create({ albumId: id, expiresInDays: 3 });
    const token = tokenOf(link.url);
    expect(Buffer.from(token, 'base64url')).toHaveLength(16);
    const stored = await s.db.selectFrom('album_shares').selectAll().executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.expires_at!.getTime() - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
    expect(stored.expires_at!.getTime() - Date.now()).toBeLessThanOrEqual(3 * 86_400_000);
    // 30 days unless asked; 1 to 365 days, anything else refused with nothing stored.
    const plain = await owner.call.shares.create({ albumId: id });
    const plainRow = await s.db.selectFrom('album_shares').select('expires_at').where('id', '=', plain.id).executeTakeFirstOrThrow();
    expect(Math.round((plainRow.expires_at!.getTime() - Date.now()) / 86_400_000)).toBe(30);
    for (const days of [0, 366, 1.5]) {
      await expect(owner.call.shares.create({ albumId: id, expiresInDays: days })).rejects.toThrow(albumMessages.badDays);
    }
    await owner.call.shares.revoke({ id: plain.id });
    expect(await s.db.selectFrom('album_shares').select('id').execute()).toHaveLength(2);

    const opened = await openAsGuest(token);
    expect(opened.status).toBe(200);
    const data = opened.body.result!.data;
    if (data.state !== 'open') throw new Error('expected an open album');
    expect([data.album.name, data.album.sharer, data.album.pictures.map((p) => [p.desc, p.uploaded, p.uploader])]).toEqual([
      'Trip',
      'owner',
      [['In the album', '2024-07-15', null]],
    ]);
    const original = await get(`/api/shared/${token}/${inAlbum.target}`);
    expect([original.statusCode, original.headers['cache-control'], original.headers['content-type']]).toEqual([200, 'private, no-store', 'image/png']);
    const download = await get(`/api/shared/${token}/${inAlbum.target}?download`);
    expect(download.headers['content-disposition']).toContain('In the album.png');
    const thumb = await get(`/api/shared/${token}/${inAlbum.target.slice(0, 32)}.thumb.webp`);
    expect([thumb.statusCode, thumb.headers['content-type']]).toEqual([200, 'image/webp']);
    // Nothing outside the album through the link, and nothing of the members' routes without a session.
    expect((await get(`/api/shared/${token}/${notInAlbum.target}`)).statusCode).toBe(404);
    expect((await get(`/private/pictures/${inAlbum.target}`)).statusCode).toBe(401);
    expect((await get('/trpc/albums.list')).statusCode).toBe(401);
    expect((await owner.call.shares.list({ albumId: id }))[0]).toMatchObject({ kind: 'view', uses: 1, hasPassword: false });
  });

  it('a guest reads hearts and comments of the album\u2019s pictures, with no member name but the sharer\u2019s, and cannot add any', async () => {
    const owner = await member('owner', 3);
    const grandma = await member('Grandma Rose', 1);
    const inAlbum = await picture(owner.cookie, 'In the album');
    const notInAlbum = await picture(owner.cookie, 'Not in the album');
    const { id } = await owner.call.albums.create({ name: 'Trip', private: false });
    await owner.call.albums.addPictures({ albumId: id, pictureIds: [inAlbum.id] });
    await owner.call.pictures.heart({ id: inAlbum.id, on: true });
    await grandma.call.pictures.heart({ id: inAlbum.id, on: true });
    await grandma.call.pictures.comment({ id: inAlbum.id, text: 'Lovely!' });
    await owner.call.pictures.comment({ id: inAlbum.id, text: 'Thank you' });
    const token = tokenOf((await owner.call.shares.create({ albumId: id })).url);
    const read = async (input: Record<string, unknown>) => {
      const res = await get(`/trpc/shares.social?input=${encodeURIComponent(JSON.stringify(input))}`);
      return { status: res.statusCode, body: res.json<{ result?: { data: PictureSocial }; error?: { message: string } }>() };
    };
    const seen = await read({ token, pictureId: inAlbum.id });
    expect(seen.status).toBe(200);
    const social = seen.body.result!.data;
    expect(social.hearts).toEqual({ count: 2, mine: false, names: ['owner'] });
    expect(social.comments.map((c) => [c.author, c.text, c.mine, c.mayDelete])).toEqual([
      [GUEST_AUTHOR, 'Lovely!', false, false],
      ['owner', 'Thank you', false, false],
    ]);
    expect(JSON.stringify(social)).not.toContain('Grandma');
    // Where it was taken: the members' viewer says it; a guest's only when the link includes location.
    // The upload's job records that its file holds no position (a row of nulls): after it, the place is set.
    await drainJobs(s.deps);
    const arezzo = { lat: 43.46, lon: 11.88, town: 'Arezzo', country: 'Italy' };
    await s.db.insertInto('picture_places').values({ picture_id: inAlbum.id, ...arezzo }).onConflict((oc) => oc.column('picture_id').doUpdateSet(arezzo)).execute();
    expect((await grandma.call.pictures.social({ id: inAlbum.id })).place).toBe('Arezzo, Italy');
    expect((await read({ token, pictureId: inAlbum.id })).body.result!.data.place).toBeNull();
    const located = tokenOf((await owner.call.shares.create({ albumId: id, includeLocation: true })).url);
    expect((await read({ token: located, pictureId: inAlbum.id })).body.result!.data.place).toBe('Arezzo, Italy');
    // Only the album's pictures, only through a working link; no heart or comment without an account.
    expect((await read({ token, pictureId: notInAlbum.id })).body.error?.message).toBe(albumMessages.noSuchPicture);
    expect((await read({ token: Buffer.alloc(16, 9).toString('base64url'), pictureId: inAlbum.id })).body.error?.message).toBe(albumMessages.gone);
    expect((await trpcPost('pictures.heart', { id: inAlbum.id, on: true })).statusCode).toBe(401);
    expect((await trpcPost('pictures.comment', { id: inAlbum.id, text: 'guest' })).statusCode).toBe(401);
    // A password link needs its pass for this too.
    const locked = tokenOf((await owner.call.shares.create({ albumId: id, password: 'open sesame' })).url);
    expect((await read({ token: locked, pictureId: inAlbum.id })).body.error?.message).toBe(albumMessages.passwordNeeded);
    const linkList = await owner.call.shares.list({ albumId: id });
    expect(linkList.map((l) => l.uses)).toEqual([0, 0, 0]);
  });

  it('a revoked, expired or guessed link answers the same "no longer shared", and serves no bytes, thumbnails included', async () => {
    const owner = await member('owner', 3);
    const family = await member('family', 2);
    const pic = await picture(owner.cookie);
    await drainJobs(s.deps);
    const { id } = await owner.call.albums.create({ name: 'Trip', private: false });
    await owner.call.albums.addPictures({ albumId: id, pictureIds: [pic.id] });
    const revoked = await owner.call.shares.create({ albumId: id });
    const expired = await owner.call.shares.create({ albumId: id });
    const thumbOf = (token: string) => `/api/shared/${token}/${pic.target.slice(0, 32)}.thumb.webp`;
    expect((await get(thumbOf(tokenOf(revoked.url)))).statusCode).toBe(200);

    await expect(family.call.shares.revoke({ id: revoked.id })).rejects.toThrow(albumMessages.notYourLink);
    await owner.call.shares.revoke({ id: revoked.id });
    await s.db.updateTable('album_shares').set({ expires_at: sql<Date>`now() - interval '1 second'` }).where('id', '=', expired.id).execute();
    const guessed = Buffer.alloc(16, 7).toString('base64url');
    const answers = [];
    for (const token of [tokenOf(revoked.url), tokenOf(expired.url), guessed, 'short', `${tokenOf(revoked.url)}x`]) {
      const opened = await openAsGuest(token);
      const file = await get(`/api/shared/${encodeURIComponent(token)}/${pic.target}`);
      const thumb = await get(thumbOf(encodeURIComponent(token)));
      answers.push([opened.status, opened.body.error?.message, file.statusCode, file.json(), thumb.statusCode, thumb.json()]);
    }
    const gone = [404, albumMessages.gone, 404, { message: albumMessages.gone }, 404, { message: albumMessages.gone }];
    expect(answers).toEqual([gone, gone, gone, gone, gone]);
    expect(await owner.call.shares.list({ albumId: id })).toEqual([]);
    await expect(owner.call.shares.revoke({ id: revoked.id })).rejects.toThrow(albumMessages.linkNotFound);
    // Deleting the album ends its links too.
    const third = await owner.call.shares.create({ albumId: id });
    await owner.call.albums.delete({ id });
    expect((await openAsGuest(tokenOf(third.url))).body.error?.message).toBe(albumMessages.gone);
  });

  it("a member lowered to a pending account stops their links at once, has them back when raised, and a deleted member's links stop", async () => {
    const owner = await member('owner', 3);
    const family = await member('family', 2);
    const pic = await picture(family.cookie, 'Picnic');
    await owner.call.pictures.approve({ id: pic.id });
    await drainJobs(s.deps);
    const { id } = await family.call.albums.create({ name: 'Picnic', private: false });
    await family.call.albums.addPictures({ albumId: id, pictureIds: [pic.id] });
    const view = tokenOf((await family.call.shares.create({ albumId: id })).url);
    const upload = tokenOf((await family.call.shares.createUpload({ albumId: id })).url);
    const uploadInfo = (token: string) => s.app.inject({ method: 'GET', url: `/trpc/shares.uploadInfo?input=${encodeURIComponent(JSON.stringify({ token }))}` });
    let n = 0;
    /** What a guest gets from each door of both links: the album, a file, a thumbnail, the upload page, an upload. */
    const doors = async () => {
      const data = await png(undefined, `#${(0x200000 + ++n * 7919).toString(16).slice(-6)}`);
      return [
        (await openAsGuest(view)).status,
        (await get(`/api/shared/${view}/${pic.target}`)).statusCode,
        (await get(`/api/shared/${view}/${pic.target.slice(0, 32)}.thumb.webp`)).statusCode,
        (await uploadInfo(upload)).statusCode,
        (await guestUpload(upload, { name: 'g.png', data }, { name: 'Aunt May' })).statusCode,
      ];
    };
    expect(await doors()).toEqual([200, 200, 200, 200, 200]);
    await owner.call.admin.setLevel({ name: 'family', level: 0 });
    expect(await doors()).toEqual([404, 404, 404, 404, 404]);
    expect((await openAsGuest(view)).body.error?.message).toBe(albumMessages.gone);
    await owner.call.admin.setLevel({ name: 'family', level: 2 });
    expect(await doors()).toEqual([200, 200, 200, 200, 200]);
    // Lowered to a friend (level 1): view links are theirs to make, upload links (level 2) no longer.
    await owner.call.admin.setLevel({ name: 'family', level: 1 });
    expect(await doors()).toEqual([200, 200, 200, 404, 404]);
    await owner.call.admin.setLevel({ name: 'family', level: 2 });
    await s.db.deleteFrom('users').where('id', '=', family.user.id).execute();
    expect(await doors()).toEqual([404, 404, 404, 404, 404]);
  });

  it('a guest downloads an original without its GPS position unless the link includes location; members get the original byte for byte', async () => {
    const owner = await member('owner', 3);
    const { id } = await owner.call.albums.create({ name: 'Travels', private: false });
    const photos = [];
    // Real photographs: an iPhone 6 Plus's in Beijing, a Nokia Lumia 820's on a beach.
    for (const [name, file] of [
      ['iphone.jpg', require.resolve('jpeg-exif/test/IMG_0001.JPG')],
      ['lumia.jpg', require.resolve('exif-parser/test/starfish.jpg')],
    ] as const) {
      const data = fs.readFileSync(file);
      expect(await exifr.gps(data), name).toMatchObject({ latitude: expect.any(Number), longitude: expect.any(Number) });
      const res = await uploadVia(s.app, owner.cookie, { name, data }, { caption: name });
      expect(res.statusCode).toBe(200);
      photos.push({ name, data, ...res.json<Uploaded>() });
    }
    await owner.call.albums.addPictures({ albumId: id, pictureIds: photos.map((p) => p.id) });
    const plain = tokenOf((await owner.call.shares.create({ albumId: id })).url);
    const located = tokenOf((await owner.call.shares.create({ albumId: id, includeLocation: true })).url);
    expect((await owner.call.shares.list({ albumId: id })).map((l) => l.includesLocation).sort()).toEqual([false, true]);
    for (const photo of photos) {
      const mine = await get(`/private/pictures/${photo.target}`, owner.cookie);
      expect(mine.rawPayload.equals(photo.data), photo.name).toBe(true);
      const kept = await get(`/api/shared/${located}/${photo.target}?download`);
      expect(kept.rawPayload.equals(photo.data), photo.name).toBe(true);

      const guest = await get(`/api/shared/${plain}/${photo.target}?download`);
      expect(guest.statusCode).toBe(200);
      const copy = guest.rawPayload;
      expect(copy.length).toBe(photo.data.length);
      expect(await exifr.gps(copy), photo.name).toBeUndefined();
      // Everything else is the photograph's: its camera and date, and its pixels.
      const pick = ['Make', 'Model', 'DateTimeOriginal'];
      expect(await exifr.parse(copy, { pick })).toEqual(await exifr.parse(photo.data, { pick }));
      const [a, b] = await Promise.all([sharp(copy).raw().toBuffer(), sharp(photo.data).raw().toBuffer()]);
      expect(a.equals(b)).toBe(true);
      let changed = 0;
      for (let i = 0; i < copy.length; i++) if (copy[i] !== photo.data[i]) changed++;
      expect(changed).toBeGreaterThan(0);
      expect(changed).toBeLessThan(400);
      // A range of the guest's copy is that range of the copy (a video plays by ranges).
      const ranged = await s.app.inject({ method: 'GET', url: `/api/shared/${plain}/${photo.target}`, headers: { range: 'bytes=100-4999' } });
      expect(ranged.statusCode).toBe(206);
      expect(ranged.rawPayload.equals(copy.subarray(100, 5000))).toBe(true);
      expect(ranged.headers.etag).not.toBe(mine.headers.etag);
    }
  });

  it("a guest's copy leaves out the personal EXIF and XMP (owner, artist, serial numbers, comments) with or without location; members get the original", async () => {
    const owner = await member('owner', 3);
    // A real JPEG written by libvips (sharp), its camera's and owner's fields in IFD0, the Exif directory and XMP.
    const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:aux="http://ns.adobe.com/exif/1.0/aux/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" aux:SerialNumber="XMPSERIAL42" xmp:CreatorTool="Darktable"><dc:creator><rdf:Seq><rdf:li>Anna Xmp</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>`;
    const data = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#3366cc' } })
      .jpeg({ quality: 85 })
      .withExif({
        IFD0: { Make: 'Canon', Model: 'EOS R5', Artist: 'Anna Hansen', Copyright: 'Anna Hansen 2024', ImageDescription: 'At grandma Zoe', XPComment: 'Ben birthday', XPAuthor: 'Anna H' },
        IFD2: { DateTimeOriginal: '2021:07:15 10:20:30', CameraOwnerName: 'Anna Owner', BodySerialNumber: '012345678', LensSerialNumber: 'LENS9876', LensModel: 'RF24-105mm' },
      })
      .withXmp(xmp)
      .toBuffer();
    const personal = ['Artist', 'Copyright', 'ImageDescription', 'XPComment', 'XPAuthor', 'OwnerName', 'SerialNumber', 'LensSerialNumber', 'UserComment'];
    const kept = { Make: 'Canon', Model: 'EOS R5', LensModel: 'RF24-105mm', DateTimeOriginal: new Date('2021-07-15T10:20:30.000Z') };
    const read = async (bytes: Buffer) => ({ ...(await exifr.parse(bytes, { exif: true, xmp: true, mergeOutput: true })) }) as Record<string, unknown>;
    const original = await read(data);
    expect(original).toMatchObject({ ...kept, Artist: 'Anna Hansen', Copyright: 'Anna Hansen 2024', ImageDescription: 'At grandma Zoe', XPComment: 'Ben birthday', XPAuthor: 'Anna H' });
    expect(original).toMatchObject({ OwnerName: 'Anna Owner', LensSerialNumber: 'LENS9876', creator: 'Anna Xmp' });
    expect(data.includes('XMPSERIAL42')).toBe(true);
    expect(JSON.stringify(original)).toContain('012345678');

    const res = await uploadVia(s.app, owner.cookie, { name: 'canon.jpg', data }, { caption: 'Canon' });
    expect(res.statusCode).toBe(200);
    const photo = res.json<Uploaded>();
    const { id } = await owner.call.albums.create({ name: 'Cameras', private: false });
    await owner.call.albums.addPictures({ albumId: id, pictureIds: [photo.id] });
    expect((await get(`/private/pictures/${photo.target}`, owner.cookie)).rawPayload.equals(data)).toBe(true);
    for (const includeLocation of [false, true]) {
      const token = tokenOf((await owner.call.shares.create({ albumId: id, includeLocation })).url);
      const copy = (await get(`/api/shared/${token}/${photo.target}?download`)).rawPayload;
      expect(copy.length).toBe(data.length);
      const fields = await read(copy);
      for (const name of personal) expect(fields[name], `${name}, includeLocation ${includeLocation}`).toBeUndefined();
      expect(fields.creator).toBeUndefined();
      for (const secret of ['Anna', '012345678', 'LENS9876', 'XMPSERIAL42', 'grandma', 'birthday']) expect(copy.includes(secret), secret).toBe(false);
      // The camera, the lens, the date and the pixels stay the photograph's.
      expect(fields).toMatchObject({ ...kept, CreatorTool: 'Darktable' });
      const [a, b] = await Promise.all([sharp(copy).raw().toBuffer(), sharp(data).raw().toBuffer()]);
      expect(a.equals(b)).toBe(true);
    }
  });

  it('a guest of a view link finds pictures by caption and by the detector\'s labels, never by members\' own tags', async () => {
    const owner = await member('owner', 3);
    const friend = await member('friend', 1);
    const pic = await picture(owner.cookie, 'Sunset pier');
    const { id } = await owner.call.albums.create({ name: 'Evening', private: false });
    await owner.call.albums.addPictures({ albumId: id, pictureIds: [pic.id] });
    await s.db.insertInto('picture_tags').values({ picture_id: pic.id, tag: 'boat', confidence: 0.8, added_by: null, source: 'model' }).execute();
    await friend.call.tags.add({ pictureId: pic.id, tag: 'Margrethe' });
    for (const token of [tokenOf((await owner.call.shares.create({ albumId: id })).url), tokenOf((await owner.call.shares.create({ albumId: id, includeLocation: true })).url)]) {
      const found = async (q: string) => (await callerFor(s.deps, null).shares.search({ token, q })).items.map((p) => p.id);
      expect(await found('margrethe')).toEqual([]);
      expect(await found('sunset')).toEqual([pic.id]);
      expect(await found('boat')).toEqual([pic.id]);
    }
    // Members still find it by the tag.
    expect((await friend.call.pictures.search({ q: 'margrethe' })).items.map((p) => p.id)).toEqual([pic.id]);
  });

  it('a password (argon2) guards the album and its files; wrong passwords are limited like logins', async () => {
    const owner = await member('owner', 3);
    const pic = await picture(owner.cookie);
    const { id } = await owner.call.albums.create({ name: 'Locked', private: false });
    await owner.call.albums.addPictures({ albumId: id, pictureIds: [pic.id] });
    const link = await owner.call.shares.create({ albumId: id, password: 'open sesame' });
    const token = tokenOf(link.url);
    const row = await s.db.selectFrom('album_shares').select('password_hash').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect((await openAsGuest(token)).body.result?.data).toEqual({ state: 'password' });
    expect((await get(`/api/shared/${token}/${pic.target}`)).json()).toEqual({ message: albumMessages.passwordNeeded });

    const unlock = (password: string) => trpcPost('shares.unlock', { token, password });
    const wrong = await unlock('nope');
    expect([wrong.statusCode, wrong.json<{ error: { message: string } }>().error.message]).toEqual([401, albumMessages.wrongPassword]);
    const right = await unlock('open sesame');
    const pass = right.json<{ result: { data: { pass: string } } }>().result.data.pass;
    expect(pass).toMatch(/^[0-9a-f]{64}$/);
    expect((await openAsGuest(token, pass)).body.result?.data.state).toBe('open');
    expect((await openAsGuest(token, 'f'.repeat(64))).body.result?.data).toEqual({ state: 'password' });
    expect((await get(`/api/shared/${token}/${pic.target}?pass=${pass}`)).statusCode).toBe(200);

    // LOGIN_MAX_FAILURES=3 in the window: the fourth attempt is refused even with the right password.
    for (let i = 0; i < 3; i++) expect((await unlock(`wrong ${i}`)).statusCode).toBe(401);
    const limited = await unlock('open sesame');
    expect([limited.statusCode, limited.json<{ error: { message: string } }>().error.message]).toEqual([429, albumMessages.throttled]);
  });

  it('a guest uploads through an upload link: pending, named on the approval page, in the album once approved', async () => {
    const owner = await member('owner', 3);
    const friend = await member('friend', 1);
    const { id } = await owner.call.albums.create({ name: 'Wedding', private: false });
    // Levels: upload links from level 2, the site's list of links for admins, nothing for guests without a token.
    await expect(friend.call.shares.createUpload({ albumId: id })).rejects.toThrow(accessMessages.levelTooLow);
    await expect(friend.call.shares.active()).rejects.toThrow(accessMessages.levelTooLow);
    await expect(callerFor(s.deps, null).albums.create({ name: 'X', private: false })).rejects.toThrow(accessMessages.signInRequired);
    const link = await owner.call.shares.createUpload({ albumId: id, expiresInDays: 2 });
    const token = tokenOf(link.url);
    expect(link.url).toMatch(/\/upload\/[A-Za-z0-9_-]{22}$/);
    const info = await trpcPost('shares.open', { token });
    expect(info.json<{ error: { message: string } }>().error.message).toBe(albumMessages.gone);
    const uploadInfo = await s.app.inject({ method: 'GET', url: `/trpc/shares.uploadInfo?input=${encodeURIComponent(JSON.stringify({ token }))}` });
    expect(uploadInfo.json<{ result: { data: unknown } }>().result.data).toEqual({ albumName: 'Wedding', sharer: 'owner', filesLeft: UPLOAD_LINK_MAX_FILES, bytesLeft: UPLOAD_LINK_MAX_BYTES });

    const data = await png(undefined, '#123456');
    const noName = await guestUpload(token, { name: 'g.png', data }, { name: '  ' });
    expect([noName.statusCode, noName.json()]).toEqual([400, { message: 'Your name may not be empty' }]);
    // A guest's name is held to member names' rules: no direction overrides, nothing only invisible.
    for (const name of ['\u202eyaM tnuA', '\u200b\u200b', 'Aunt\u2066 May']) {
      const tricked = await guestUpload(token, { name: 'g.png', data }, { name });
      expect([name, tricked.statusCode, tricked.json()]).toEqual([name, 400, { message: 'Your name may not contain invisible or direction-changing characters' }]);
    }
    const notPicture = await guestUpload(token, { name: 'g.txt', data: Buffer.from('hello there') }, { name: 'Aunt May' });
    expect(notPicture.statusCode).toBe(415);
    expect(await s.db.selectFrom('pictures').select('id').execute()).toEqual([]);

    const sent = await guestUpload(token, { name: 'g.png', data }, { name: 'Aunt May' });
    expect([sent.statusCode, sent.json()]).toEqual([200, { duplicate: false, message: albumMessages.guestUploaded }]);
    const again = await guestUpload(token, { name: 'g.png', data }, { name: 'Aunt May' });
    expect(again.json()).toEqual({ duplicate: true, message: albumMessages.guestDuplicate });
    const pending = await owner.call.pictures.pending();
    expect(pending.map((p) => [p.guest, p.uploader, p.pending])).toEqual([['Aunt May', null, true]]);
    // Not in the album, nor the gallery of anyone but admins, until approved.
    expect((await owner.call.albums.get({ id })).pictures).toEqual([]);
    expect((await friend.call.pictures.page({ type: 'month', index: 0 })).pictures).toEqual([]);
    await owner.call.pictures.approve({ id: pending[0]!.id });
    expect((await owner.call.albums.get({ id })).pictures.map((p) => p.id)).toEqual([pending[0]!.id]);
    expect((await owner.call.shares.active())[0]).toMatchObject({ kind: 'upload', uploads: 1, albumName: 'Wedding' });
    // An upload link opens no album, and a view link takes no upload.
    const view = await owner.call.shares.create({ albumId: id });
    expect((await guestUpload(tokenOf(view.url), { name: 'g.png', data }, { name: 'X' })).json()).toEqual({ message: albumMessages.gone });
  });

  it('an upload link stops at its caps (files and bytes), when revoked, and an address counts against the sign-up limit', async () => {
    const owner = await member('owner', 3);
    const link = await owner.call.shares.createUpload({});
    const token = tokenOf(link.url);
    const send = async (colourHex: string, ip?: string) => guestUpload(token, { name: 'g.png', data: await png(undefined, colourHex) }, { name: 'Guest' }, ip);

    await s.db.updateTable('album_shares').set({ uses: UPLOAD_LINK_MAX_FILES }).execute();
    const full = await send('#010101');
    expect([full.statusCode, full.json()]).toEqual([403, { message: albumMessages.capFiles }]);
    await s.db.updateTable('album_shares').set({ uses: 0, upload_bytes: UPLOAD_LINK_MAX_BYTES - 100 }).execute();
    const big = await send('#020202');
    expect(big.statusCode).toBe(413);
    expect(await s.db.selectFrom('pictures').select('id').execute()).toEqual([]);
    expect(filesUnder(path.join(mediaDir, 'pictures'))).toEqual([]);
    await s.db.updateTable('album_shares').set({ upload_bytes: 0 }).execute();
    expect((await send('#030303')).statusCode).toBe(200);

    // SIGNUP_MAX_PER_ADDRESS=2: this address's first upload on each link counts once; a third link is refused.
    const second = await owner.call.shares.createUpload({});
    const third = await owner.call.shares.createUpload({});
    expect((await guestUpload(tokenOf(second.url), { name: 'g.png', data: await png(undefined, '#040404') }, { name: 'Guest' })).statusCode).toBe(200);
    const flood = await guestUpload(tokenOf(third.url), { name: 'g.png', data: await png(undefined, '#050505') }, { name: 'Guest' });
    expect([flood.statusCode, flood.json()]).toEqual([429, { message: albumMessages.guestThrottled }]);
    expect((await guestUpload(tokenOf(third.url), { name: 'g.png', data: await png(undefined, '#050505') }, { name: 'Guest' }, '10.0.0.2')).statusCode).toBe(200);

    await owner.call.shares.revoke({ id: link.id });
    expect((await send('#060606')).json()).toEqual({ message: albumMessages.gone });
  });
});

describe.each(databases)('albums on the live feed (%s)', (kind) => {
  let handle: TestDb;
  let deps: AppDeps;
  let watching: Listening;
  beforeAll(async () => {
    handle = await createTestDb(kind);
    deps = createDeps(testConfig(handle.url ? { DATABASE_URL: handle.url } : {}), handle.db);
    watching = watchDatabaseChanges(handle, deps, { warn: () => {} });
    await watching.ready;
  }, 60_000);
  afterAll(async () => {
    await watching?.stop();
    await handle?.close();
  });

  it('tells a private album\u2019s changes to its owner only, a family album\u2019s to everyone', async () => {
    const friend = await createUser(deps, 'friend', 1);
    const call = callerFor(deps, friend);
    const heard: (number | null)[] = [];
    const stop = deps.changes.subscribe((m) => void (m.kind === 'change' && m.change.area === 'albums' && heard.push(m.change.userId)), () => {});
    const { id: mine } = await call.albums.create({ name: 'Secret', private: true });
    await expect.poll(() => heard).toEqual([friend.id]);
    await call.albums.create({ name: 'Family', private: false });
    await expect.poll(() => heard).toEqual([friend.id, null]);
    await call.albums.rename({ id: mine, name: 'Still secret' });
    await expect.poll(() => heard).toEqual([friend.id, null, friend.id]);
    stop();
  });
});
