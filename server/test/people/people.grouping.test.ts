import { describe, expect, it } from 'vitest';
import { accessMessages } from '@site/contracts';
import { saveIndex } from '../../src/areas/people/people.repository.ts';
import { GROUP_SIMILARITY, pairwiseScores, similarPairs } from '../../src/areas/people/people.grouping.ts';
import { readTuningEmbeddings, tuningFaces } from '../../src/areas/people/people.tuning.ts';
import { vectorOf } from '../../src/areas/people/people.vectors.ts';
import { callerFor, createUser, databases, useTestServer, type TestServer } from '../helpers.ts';
import { pictureRow } from '../pictures/pictures.fixtures.ts';

/**
 * The grouping job, suggestions and answers on the real faces of ../shared/faces-tuning: each photo is
 * an approved picture whose faces (their embeddings as the indexing child found them, from
 * test/people/faces-tuning.embeddings.json) are stored as indexing stores them, placed at once by the
 * online centroid; then `people.regroup` groups every face again.
 */
const photos = readTuningEmbeddings();
const { labels } = tuningFaces(photos);

/** Every photo (or those given) stored and "indexed" as the worker would; returns each photo's picture id. */
async function indexAll(s: TestServer, which = photos): Promise<number[]> {
  const ids: number[] = [];
  for (const photo of which) {
    const row = await s.db.insertInto('pictures').values(pictureRow(null, photo.file, [2019, 5, 12])).returning('id').executeTakeFirstOrThrow();
    const faces = photo.faces.map((f) => ({ box: f.box as [number, number, number, number], score: f.score, embedding: Array.from(f.vector) }));
    await s.db.transaction().execute((trx) => saveIndex(trx, row.id, faces, []));
    ids.push(row.id);
  }
  return ids;
}

/** Each face's person, in the order of tuningFaces (photo by photo, face by face). */
async function groupsOf(s: TestServer, pictures: number[]): Promise<number[]> {
  const rows = await s.db.selectFrom('faces').select(['picture_id', 'ordinal', 'person_id', 'id']).execute();
  const key = new Map(rows.map((r) => [`${r.picture_id}:${r.ordinal}`, r.person_id ?? -r.id]));
  return photos.flatMap((photo, p) => photo.faces.map((_, i) => key.get(`${pictures[p]}:${i}`) ?? Number.NaN));
}

async function facesOf(s: TestServer, personId: number): Promise<number[]> {
  return (await s.db.selectFrom('faces').select('id').where('person_id', '=', personId).orderBy('id').execute()).map((r) => r.id);
}

// 63 pictures stored and grouped a few times: about 10 s on an idle box, over a minute on a loaded one.
describe.each(databases)('people grouping (%s)', { timeout: 240_000 }, (kind) => {
  const s = useTestServer(kind);

  it('re-groups every face with average linkage: precision >= 0.95, recall >= 0.90 on faces-tuning, where the online placement alone falls short', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const friend = await createUser(s.deps, 'friend', 1);
    const pictures = await indexAll(s);
    const online = pairwiseScores(await groupsOf(s, pictures), labels);
    expect(online.precision).toBeGreaterThanOrEqual(0.95);
    expect(online.recall).toBeLessThan(0.9);

    await expect(callerFor(s.deps, friend).people.regroup()).rejects.toThrow(accessMessages.levelTooLow);
    const result = await callerFor(s.deps, owner).people.regroup();
    expect(result.faces).toBe(photos.reduce((n, p) => n + p.faces.length, 0));
    const scores = pairwiseScores(await groupsOf(s, pictures), labels);
    expect(scores.precision).toBeGreaterThanOrEqual(0.95);
    expect(scores.recall).toBeGreaterThanOrEqual(0.9);
    // Each card says when the person was first seen (every tuning photo is dated 12 May 2019).
    const cards = await callerFor(s.deps, friend).people.list();
    expect(cards.length).toBeGreaterThan(1);
    for (const card of cards) expect(card.first).toEqual({ year: 2019, month: 5, day: 12 });
    // Grouping again changes nothing.
    expect((await callerFor(s.deps, owner).people.regroup()).moved).toBe(0);
    // Every person's centroid and count follow their faces.
    const people = await s.db.selectFrom('people').select(['id', 'face_count']).execute();
    for (const p of people) expect(p.face_count).toBe((await facesOf(s, p.id)).length);
  });

  it('keeps the similar pairs as faces arrive: exactly every face against every face, each new face compared once, found again when the threshold is lowered', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const half = Math.floor(photos.length / 2);
    const allPairs = async () => {
      const faces = await s.db.selectFrom('faces').select(['id', 'embedding']).orderBy('id').execute();
      return similarPairs(faces.map((f) => ({ vector: vectorOf(f.embedding), picture: 0, fixed: null })), GROUP_SIMILARITY).map(([i, j]) => `${faces[i]!.id}-${faces[j]!.id}`);
    };
    const stored = async () => (await s.db.selectFrom('face_pairs').select(['a', 'b']).execute()).map((p) => `${p.a}-${p.b}`).sort();
    const unpaired = async () => (await s.db.selectFrom('faces').select('id').where('paired', '=', false).execute()).length;

    await indexAll(s, photos.slice(0, half));
    await callerFor(s.deps, owner).people.regroup();
    expect(await unpaired()).toBe(0);
    expect(await stored()).toEqual((await allPairs()).sort());
    const firstPairs = (await stored()).length;
    expect(firstPairs).toBeGreaterThan(10);

    // The rest arrive: only they are compared, and the pairs are still exactly all of them.
    await indexAll(s, photos.slice(half));
    expect(await unpaired()).toBeGreaterThan(0);
    await callerFor(s.deps, owner).people.regroup();
    expect(await unpaired()).toBe(0);
    const every = (await allPairs()).sort();
    expect(await stored()).toEqual(every);
    expect(every.length).toBeGreaterThan(firstPairs);

    // A face taken out keeps its pairs (it may be given back) but is grouped with nobody by them.
    const [pairOfTwo] = await s.db.selectFrom('face_pairs').select(['a', 'b']).orderBy('similarity', 'desc').limit(1).execute();
    await s.db.updateTable('faces').set({ removed: true, person_id: null }).where('id', '=', pairOfTwo!.a).execute();
    await callerFor(s.deps, owner).people.regroup();
    expect((await s.db.selectFrom('faces').select('person_id').where('id', '=', pairOfTwo!.a).executeTakeFirstOrThrow()).person_id).toBeNull();
    expect(await stored()).toEqual(every);

    // A picture deleted takes its faces' pairs with it.
    const gone = await s.db.selectFrom('faces').select('picture_id').where('id', '=', pairOfTwo!.b).executeTakeFirstOrThrow();
    await s.db.deleteFrom('pictures').where('id', '=', gone.picture_id).execute();
    const left = await stored();
    expect(left.length).toBeLessThan(every.length);
    expect(left.some((p) => p.split('-').map(Number).includes(pairOfTwo!.b))).toBe(false);

    // Pairs found at a higher similarity than the grouping's now (a release lowered it): found again, all of them.
    await s.db.updateTable('people_settings').set({ pairs_similarity: 0.9 }).execute();
    await s.db.deleteFrom('face_pairs').execute();
    await callerFor(s.deps, owner).people.regroup();
    expect(await stored()).toEqual((await allPairs()).sort());
  });

  it('suggests likely pairs most likely first; "no" sticks through a re-grouping, "yes" merges; a face is given to a person or a new one', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const friend = await createUser(s.deps, 'friend', 1);
    const api = callerFor(s.deps, friend);
    await indexAll(s);
    await callerFor(s.deps, owner).people.regroup();

    const first = await api.people.suggestions();
    expect(first.length).toBeGreaterThan(1);
    for (let i = 1; i < first.length; i++) expect(first[i - 1]!.similarity).toBeGreaterThanOrEqual(first[i]!.similarity);
    const no = first[0]!;
    await expect(api.people.answer({ a: no.a, b: no.a, same: false })).rejects.toThrow('Choose two different people');
    await expect(api.people.answer({ a: no.a, b: 999_999, same: false })).rejects.toThrow('That person is not here any more');
    expect(await api.people.answer({ a: no.a, b: no.b, same: false })).toEqual({ id: null });
    const after = await api.people.suggestions();
    expect(after.some((p) => (p.a === no.a && p.b === no.b) || (p.a === no.b && p.b === no.a))).toBe(false);

    // A "no" sticks: re-grouping keeps them two, each with their faces, and never asks again.
    const facesA = await facesOf(s, no.a);
    const facesB = await facesOf(s, no.b);
    await callerFor(s.deps, owner).people.regroup();
    expect(await facesOf(s, no.a)).toEqual(expect.arrayContaining(facesA));
    expect(await facesOf(s, no.b)).toEqual(expect.arrayContaining(facesB));
    expect((await api.people.suggestions()).some((p) => [p.a, p.b].includes(no.a) && [p.a, p.b].includes(no.b))).toBe(false);

    // "Yes" merges the next pair into its first person, and the re-grouping keeps them one.
    const yes = after[0]!;
    const both = [...(await facesOf(s, yes.a)), ...(await facesOf(s, yes.b))].sort((x, y) => x - y);
    expect(await api.people.answer({ a: yes.a, b: yes.b, same: true })).toEqual({ id: yes.a });
    await callerFor(s.deps, owner).people.regroup();
    expect(await facesOf(s, yes.a)).toEqual(expect.arrayContaining(both));
    expect(await s.db.selectFrom('people').select('id').where('id', '=', yes.b).executeTakeFirst()).toBeUndefined();

    // A face taken out belongs to nobody; it is given to a person, or to a new one by name.
    const [face] = await facesOf(s, yes.a);
    await api.people.removeFace({ faceId: face! });
    // Listed under "Faces without a person", and in its picture's "In this picture" without a person;
    // by level: a Friend and up, never a pending account, nobody logged out.
    const pictureOfFace = (await s.db.selectFrom('faces').select('picture_id').where('id', '=', face!).executeTakeFirstOrThrow()).picture_id;
    const stemOfFace = (await s.db.selectFrom('pictures').select('stem').where('id', '=', pictureOfFace).executeTakeFirstOrThrow()).stem;
    expect((await api.people.unassigned()).find((f) => f.faceId === face)).toMatchObject({ faceId: face, pictureId: pictureOfFace, stem: stemOfFace });
    expect(await callerFor(s.deps, owner).people.unassigned()).toEqual(await api.people.unassigned());
    expect((await api.people.inPicture({ pictureId: pictureOfFace })).find((f) => f.faceId === face)).toMatchObject({ personId: null, name: null });
    const waiting = await createUser(s.deps, 'waiting', 0);
    await expect(callerFor(s.deps, waiting).people.unassigned()).rejects.toThrow(accessMessages.levelTooLow);
    await expect(callerFor(s.deps, null).people.unassigned()).rejects.toThrow('You need to log in to do this');
    await expect(api.people.assignFace({ faceId: face!, personId: no.a, name: 'Both' })).rejects.toThrow('Choose a person or write a name');
    await expect(api.people.assignFace({ faceId: 999_999, personId: no.a })).rejects.toThrow('That face is not here any more');
    await expect(api.people.assignFace({ faceId: face!, personId: 999_999 })).rejects.toThrow('That person is not here any more');
    expect(await api.people.assignFace({ faceId: face!, personId: no.b })).toEqual({ id: no.b });
    expect((await api.people.unassigned()).some((f) => f.faceId === face)).toBe(false);
    expect((await api.people.inPicture({ pictureId: pictureOfFace })).find((f) => f.faceId === face)).toMatchObject({ personId: no.b });
    await callerFor(s.deps, owner).people.regroup();
    expect(await facesOf(s, no.b)).toContain(face);
    const { id: named } = await api.people.assignFace({ faceId: face!, name: 'Aunt Ada' });
    expect(await s.db.selectFrom('people').select(['name', 'face_count']).where('id', '=', named).executeTakeFirst()).toEqual({ name: 'Aunt Ada', face_count: 1 });
    await callerFor(s.deps, owner).people.regroup();
    expect(await facesOf(s, named)).toContain(face);
  });
});
