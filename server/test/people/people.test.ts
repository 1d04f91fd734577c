import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { drainJobs } from '../../src/areas/pictures/pictures.worker.ts';
import { claimIndex } from '../../src/areas/people/people.repository.ts';
import { drainIndex, indexChildOf, indexOne } from '../../src/areas/people/people.worker.ts';
import { indexChildStats } from '../../src/areas/people/people.child.ts';
import { callerFor, cookieFor, createUser, databases, useTestServer, type TestServer } from '../helpers.ts';
import { tempMediaDir, uploadVia } from '../pictures/pictures.fixtures.ts';

/**
 * Real photographs (server/test/people/fixtures, README there): three group photos of different
 * women (4, 5 and 4 faces) and two portraits cut from the third group's original, each holding its
 * two leftmost women. The indexing child really runs: models from node_modules, one load per app.
 */
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const photo = (name: string) => ({ name: `${name}.jpg`, data: fs.readFileSync(path.join(FIXTURES, `${name}.jpg`)), type: 'image/jpeg' });

async function upload(s: TestServer, cookie: string, name: string): Promise<number> {
  const res = await uploadVia(s.app, cookie, photo(name), { caption: name, date: '2024-05-xx' });
  expect(res.statusCode).toBe(200);
  const row = await s.db.selectFrom('pictures').select('id').where('caption', '=', name).executeTakeFirstOrThrow();
  return row.id;
}

/** The people of picture `id`, left to right: each one's person id. */
async function peopleLeftToRight(s: TestServer, pictureId: number): Promise<(number | null)[]> {
  const faces = await s.db.selectFrom('faces').select(['person_id', 'box']).where('picture_id', '=', pictureId).execute();
  return faces.sort((a, b) => (a.box[0] ?? 0) - (b.box[0] ?? 0)).map((f) => f.person_id);
}

describe.each(databases)('people (%s)', (kind) => {
  const s = useTestServer(kind, { MEDIA_DIR: tempMediaDir() });
  afterAll(async () => {
    if (s.deps) await indexChildOf(s.deps).close();
  });

  it('clusters real faces into people: different people apart, portraits joined by their group photo; name, merge, take out, hide, status', async () => {
    const startsBefore = indexChildStats.starts;
    const owner = await createUser(s.deps, 'owner', 3);
    const friend = await createUser(s.deps, 'friend', 1);
    const ownerCookie = await cookieFor(s.deps, 3, 'owner2');
    const a = await upload(s, ownerCookie, 'portrait-6a');
    const b = await upload(s, ownerCookie, 'portrait-6b');
    // A friend's upload waits for approval: it is neither indexed nor counted.
    const pending = await upload(s, await cookieFor(s.deps, 1, 'friend2'), 'group-5');
    await drainJobs(s.deps);
    const api = callerFor(s.deps, friend);
    expect(await api.people.status()).toEqual({ indexed: 0, total: 2 });

    expect(await drainIndex(s.deps)).toBe(2);
    expect(await api.people.status()).toEqual({ indexed: 2, total: 2 });
    // Each portrait holds the same two women: two people, two faces each.
    const [left, right] = await peopleLeftToRight(s, a);
    expect(await peopleLeftToRight(s, b)).toEqual([left, right]);
    expect(left).not.toBe(right);
    expect((await api.people.list()).map((p) => [p.id, p.faceCount])).toEqual([
      [left, 2],
      [right, 2],
    ]);

    const g4 = await upload(s, ownerCookie, 'group-4');
    const g6 = await upload(s, ownerCookie, 'group-6');
    await callerFor(s.deps, owner).pictures.approve({ id: pending });
    await drainJobs(s.deps);
    expect(await api.people.status()).toEqual({ indexed: 2, total: 5 });
    expect(await drainIndex(s.deps)).toBe(3);
    expect(await api.people.status()).toEqual({ indexed: 5, total: 5 });

    // The group photo's two leftmost women join the people of the portraits; its others are new.
    const group6 = await peopleLeftToRight(s, g6);
    expect(group6).toHaveLength(4);
    expect(group6.slice(0, 2)).toEqual([left, right]);
    // Thirteen different women in three group photos: thirteen people, never two in one.
    const everyone = [...(await peopleLeftToRight(s, g4)), ...(await peopleLeftToRight(s, pending)), ...group6];
    expect(everyone).toHaveLength(13);
    expect(new Set(everyone).size).toBe(13);
    const list = await api.people.list();
    expect(list).toHaveLength(13);
    expect(list.slice(0, 2).map((p) => [p.id, p.name, p.faceCount])).toEqual([
      [left, null, 3],
      [right, null, 3],
    ]);
    expect(list.slice(2).every((p) => p.faceCount === 1)).toBe(true);
    expect((await api.people.get({ id: left! })).pictureIds.sort()).toEqual([a, b, g6].sort());
    expect(await api.people.inPicture({ pictureId: a })).toMatchObject([{ personId: left }, { personId: right }]);

    // Naming, by any member who sees the pictures.
    await api.people.name({ id: left!, name: '  Grandma Zoë ' });
    expect((await api.people.get({ id: left! })).name).toBe('Grandma Zoë');
    expect((await api.people.inPicture({ pictureId: g6 }))[0]).toMatchObject({ personId: left, name: 'Grandma Zoë' });
    // Their name finds their pictures in the gallery's search (members), and is suggested while typing.
    const found = async (q: string) => (await api.pictures.search({ q })).items.map((p) => p.id).sort();
    expect(await found('grandma')).toEqual([a, b, g6].sort());
    expect(await found('Grandma Zoë')).toEqual([a, b, g6].sort());
    expect((await api.pictures.suggest({ q: 'zo' })).suggestions).toContainEqual({ label: 'Grandma Zoë', query: 'Grandma Zoë', kind: 'person' });
    // Never a guest's: a shared album holding the group photo does not find it by her name.
    const { id: albumId } = await callerFor(s.deps, owner).albums.create({ name: 'Group photos', private: false });
    await callerFor(s.deps, owner).albums.addPictures({ albumId, pictureIds: [g6] });
    const token = (await callerFor(s.deps, owner).shares.create({ albumId, includeLocation: true })).url.split('/').pop() ?? '';
    expect((await callerFor(s.deps, null).shares.search({ token, q: 'grandma' })).items).toEqual([]);

    // Merging keeps the first person and the name; the faces and pictures add up.
    const third = group6[2]!;
    await api.people.merge({ ids: [third, left!] });
    const merged = (await api.people.list()).find((p) => p.id === third);
    expect(merged).toMatchObject({ id: third, name: 'Grandma Zoë', faceCount: 4, pictureCount: 3 });
    expect((await api.people.list()).some((p) => p.id === left)).toBe(false);

    // Taking a wrong face out: it leaves the person (and stays out), the count drops.
    const wrong = await s.db.selectFrom('faces').select('id').where('picture_id', '=', g6).where('person_id', '=', third).orderBy('id').executeTakeFirstOrThrow();
    await api.people.removeFace({ faceId: wrong.id });
    expect((await api.people.list()).find((p) => p.id === third)?.faceCount).toBe(3);
    expect((await api.people.get({ id: third })).pictureIds.sort()).toEqual([a, b, g6].sort());
    await expect(api.people.removeFace({ faceId: wrong.id })).resolves.toBeUndefined();

    // Hiding (Family's, or the namer's: hidden.test.ts): gone from the list and from the viewer, listed again on request to Family.
    const family = callerFor(s.deps, owner);
    await family.people.hide({ id: right!, hidden: true });
    expect((await api.people.list()).some((p) => p.id === right)).toBe(false);
    expect((await family.people.list({ includeHidden: true })).find((p) => p.id === right)).toMatchObject({ hidden: true, faceCount: 3 });
    expect((await api.people.inPicture({ pictureId: a })).map((f) => f.personId)).toEqual([third]);
    await family.people.name({ id: right!, name: 'Aunt Hidden' });
    expect(await found('aunt')).toEqual([]);

    // The model loaded once for the five pictures.
    expect(indexChildStats.starts - startsBefore).toBe(1);
    expect(indexChildStats.maxPeakBytes).toBeLessThan(500 * 1024 * 1024);

    // Things: the detector's label with its confidence; members' own tags.
    const tags = await api.tags.list({ pictureId: g6 });
    expect(tags.find((t) => t.tag === 'person')).toMatchObject({ source: 'model', mine: false });
    expect(tags.find((t) => t.tag === 'person')?.confidence).toBeGreaterThan(0.35);
    // The detector's labels are words of the search, for guests too.
    expect(await found('person')).toEqual([a, b, g4, g6, pending].sort());
    expect((await callerFor(s.deps, null).shares.search({ token, q: 'person' })).items.map((p) => p.id)).toEqual([g6]);
    await api.tags.add({ pictureId: g6, tag: ' Sofa ' });
    expect(await found('sofa')).toEqual([g6]);
    expect((await api.pictures.suggest({ q: 'so' })).suggestions).toContainEqual({ label: 'sofa', query: 'sofa', kind: 'tag' });
    await api.tags.add({ pictureId: g6, tag: 'sofa' });
    const ownerApi = callerFor(s.deps, owner);
    await ownerApi.tags.add({ pictureId: g6, tag: 'Sofa' });
    expect((await api.tags.list({ pictureId: g6 })).filter((t) => t.tag === 'sofa')).toEqual([
      { tag: 'sofa', confidence: null, source: 'member', mine: true },
      { tag: 'sofa', confidence: null, source: 'member', mine: false },
    ]);
    await expect(ownerApi.tags.remove({ pictureId: g6, tag: 'person' })).rejects.toThrow('You have no such tag on this picture');
    await api.tags.remove({ pictureId: g6, tag: 'sofa' });
    expect((await api.tags.list({ pictureId: g6 })).filter((t) => t.source === 'member')).toEqual([{ tag: 'sofa', confidence: null, source: 'member', mine: false }]);
    await expect(api.tags.add({ pictureId: g6, tag: '   ' })).rejects.toThrow('Tag');

    // The owner's switch: off, nobody sees people and nothing more is indexed.
    await ownerApi.people.setEnabled({ enabled: false });
    expect(await api.people.list()).toEqual([]);
    expect(await api.people.inPicture({ pictureId: g6 })).toEqual([]);
    expect(await found('grandma')).toEqual([]);
    await expect(api.people.name({ id: third, name: 'Zoë' })).rejects.toThrow('People are turned off on this site');
    expect(await ownerApi.people.settings()).toEqual({ enabled: false, indexed: 5, total: 5, failed: 0 });
    await ownerApi.people.setEnabled({ enabled: true });
    expect((await api.people.list()).length).toBe(11);
    expect(await found('grandma')).toEqual([a, b, g6].sort());
  }, 180_000);

  it('levels: people and tags from Friend up, the switch the owner\'s; pending pictures are nobody else\'s to tag or look into', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const friend = await createUser(s.deps, 'friend', 1);
    const other = await createUser(s.deps, 'other', 1);
    const waiting = await createUser(s.deps, 'waiting', 0);
    await expect(callerFor(s.deps, null).people.list()).rejects.toThrow('You need to log in to do this');
    await expect(callerFor(s.deps, waiting).people.list()).rejects.toThrow('Your account level does not allow this');
    await expect(callerFor(s.deps, waiting).tags.list({ pictureId: 1 })).rejects.toThrow('Your account level does not allow this');
    await expect(callerFor(s.deps, friend).people.setEnabled({ enabled: false })).rejects.toThrow('Your account level does not allow this');
    await expect(callerFor(s.deps, friend).people.settings()).rejects.toThrow('Your account level does not allow this');
    expect(await callerFor(s.deps, friend).people.list()).toEqual([]);
    expect(await callerFor(s.deps, owner).people.settings()).toEqual({ enabled: true, indexed: 0, total: 0, failed: 0 });

    // A friend's picture waiting for approval: not indexed, not the others' to see into or tag, not yet its uploader's to tag.
    const pending = await upload(s, await cookieFor(s.deps, 1, 'friend2'), 'portrait-6a');
    const uploader = (await s.db.selectFrom('users').select(['id', 'name', 'level']).where('name', '=', 'friend2').executeTakeFirstOrThrow()) as { id: number; name: string; level: 1 };
    await expect(callerFor(s.deps, other).people.inPicture({ pictureId: pending })).rejects.toThrow('That picture does not exist');
    await expect(callerFor(s.deps, other).tags.add({ pictureId: pending, tag: 'sofa' })).rejects.toThrow('That picture does not exist');
    await expect(callerFor(s.deps, uploader).tags.add({ pictureId: pending, tag: 'sofa' })).rejects.toThrow('Tags open once an admin has approved the picture');
    expect(await callerFor(s.deps, uploader).tags.list({ pictureId: pending })).toEqual([]);
    expect(await s.db.selectFrom('picture_index').select('picture_id').execute()).toEqual([]);
    await callerFor(s.deps, owner).pictures.approve({ id: pending });
    expect(await s.db.selectFrom('picture_index').select(['picture_id', 'state']).execute()).toEqual([{ picture_id: pending, state: 'pending' }]);
    await callerFor(s.deps, uploader).tags.add({ pictureId: pending, tag: 'sofa' });
    expect(await callerFor(s.deps, other).tags.list({ pictureId: pending })).toEqual([{ tag: 'sofa', confidence: null, source: 'member', mine: false }]);
  });

  it('a picture whose indexing was killed (the child by SIGKILL, the server mid-lease) is indexed again, and no face is stored twice', async () => {
    await createUser(s.deps, 'owner', 3);
    const cookie = await cookieFor(s.deps, 3, 'owner2');
    const g4 = await upload(s, cookie, 'group-4');
    await drainJobs(s.deps);
    const child = indexChildOf(s.deps);
    // The child up and its models loaded (a picture read outside the queue), so the kill lands mid-picture.
    expect((await child.index(path.join(FIXTURES, 'portrait-6a.jpg'))).ok).toBe(true);

    // The child is killed while it reads the picture: no answer, nothing stored, tried again later.
    const started = indexOne(s.deps);
    await new Promise((r) => setTimeout(r, 150));
    process.kill(child.pid!, 'SIGKILL');
    expect(await started).toBe(true);
    const afterKill = await s.db.selectFrom('picture_index').selectAll().where('picture_id', '=', g4).executeTakeFirstOrThrow();
    expect(afterKill).toMatchObject({ state: 'pending', attempts: 1, locked_until: null });
    expect(afterKill.last_error).toMatch(/indexing child ended/);
    expect(await s.db.selectFrom('faces').select('id').execute()).toEqual([]);

    // A server killed after claiming it: the lease runs out, then the picture is claimed again.
    await s.db.updateTable('picture_index').set({ run_after: new Date(Date.now() - 1000) }).execute();
    expect(await claimIndex(s.db, 120)).toMatchObject({ picture_id: g4, attempts: 2 });
    expect(await indexOne(s.deps)).toBe(false);
    await s.db.updateTable('picture_index').set({ locked_until: new Date(Date.now() - 1000) }).execute();
    expect(await drainIndex(s.deps)).toBe(1);
    const faces = await s.db.selectFrom('faces').select(['ordinal']).where('picture_id', '=', g4).orderBy('ordinal').execute();
    expect(faces.map((f) => f.ordinal)).toEqual([0, 1, 2, 3]);
    expect(await s.db.selectFrom('people').select('id').execute()).toHaveLength(4);
    expect(await s.db.selectFrom('picture_index').select(['state', 'attempts']).executeTakeFirstOrThrow()).toEqual({ state: 'done', attempts: 3 });

    // Indexed once: nothing is due again.
    expect(await drainIndex(s.deps)).toBe(0);

    // A video is read from its poster frame: a clip made of the group photo finds its four women,
    // who join the people the photo made.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'people-video-'));
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-loop', '1', '-i', path.join(FIXTURES, 'group-4.jpg'), '-t', '2', '-r', '5', '-vf', 'crop=800:602:0:0', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', path.join(dir, 'clip.mp4')]);
    const res = await uploadVia(s.app, cookie, { name: 'clip.mp4', data: fs.readFileSync(path.join(dir, 'clip.mp4')), type: 'video/mp4' }, { caption: 'clip' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(res.statusCode).toBe(200);
    await drainJobs(s.deps);
    expect(await drainIndex(s.deps)).toBe(1);
    const clip = await s.db.selectFrom('pictures').select('id').where('caption', '=', 'clip').executeTakeFirstOrThrow();
    expect(new Set(await peopleLeftToRight(s, clip.id))).toEqual(new Set(await peopleLeftToRight(s, g4)));

    // Deleting the photo takes its faces out of their people; the clip keeps them.
    await callerFor(s.deps, await createUser(s.deps, 'admin', 3)).pictures.delete({ id: g4 });
    expect(await s.db.selectFrom('people').select('face_count').orderBy('id').execute()).toEqual([{ face_count: 1 }, { face_count: 1 }, { face_count: 1 }, { face_count: 1 }]);
    await callerFor(s.deps, await createUser(s.deps, 'admin2', 3)).pictures.delete({ id: clip.id });
    expect(await s.db.selectFrom('people').select('id').execute()).toEqual([]);
  }, 120_000);
});
