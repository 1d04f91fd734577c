import { sql } from 'kysely';
import { peopleMessages } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { GROUP_SIMILARITY, groupFaces, newPairsYielding, type Packed } from './people.grouping.ts';
import * as repo from './people.repository.ts';
import { hexOf, vectorBytes, vectorOfHex } from './people.vectors.ts';

/** What `regroup` has just done, for a caller that times its steps (the benchmark). */
export type RegroupStep = 'embeddings read' | 'new pairs stored' | 'faces and pairs read' | 'grouped';

/**
 * The grouping job (issue 48): every face that is not taken out is grouped again with average linkage
 * (people.grouping.ts), the members' decisions kept: a confirmed person (or a hidden one) keeps its
 * faces and its id, and may gain faces; the other people are dissolved and made again, each new group
 * keeping the id of the unconfirmed person that gave it most faces (so a page's address mostly
 * survives), or a new id. The similar pairs of faces are kept (face_pairs, storePairs): only faces
 * not yet paired are compared, each with every other face, outside any transaction and letting the
 * event loop run between blocks; the result is written in one transaction under the
 * clustering lock, only if the faces and the people are still as they were read (a face indexed or a
 * member's decision meanwhile: this run is dropped, `{ stale: true }`, and the next one sees it). The
 * people worker runs it after each batch of indexing, `people.regroup` on demand.
 */
export async function regroup(db: Executor, step: (done: RegroupStep) => void = () => {}): Promise<{ faces: number; people: number; moved: number; stale?: true }> {
  await pairsFoundAt(db);
  const read = (ex: Executor) =>
    Promise.all([
      ex.selectFrom('faces').select(['id', 'picture_id', 'person_id']).where('removed', '=', false).orderBy('id').execute(),
      ex.selectFrom('people').select(['id', 'confirmed', 'hidden']).orderBy('id').execute(),
    ]);
  // Every face's embedding, read once (in slices): the new faces' pairs are found among all of them,
  // the grouping is of those not taken out.
  const all = await db.selectFrom('faces').select(['id', 'paired']).orderBy('id').execute();
  const matrix = await embeddingsOf(db, all);
  step('embeddings read');
  if (!(await storePairs(db, all, matrix))) return { faces: 0, people: 0, moved: 0, stale: true };
  step('new pairs stored');
  const [faces, people] = await read(db);
  const rowOf = new Map(all.map((f, i) => [f.id, i]));
  const rows = faces.map((f) => rowOf.get(f.id));
  // A face indexed since `all` was read: the next run groups it.
  if (rows.some((r) => r === undefined)) return { faces: faces.length, people: 0, moved: 0, stale: true };
  const { data, dim } = matrix;
  const embeddings = rows.map((r) => data.subarray(r! * dim, (r! + 1) * dim));
  const kept = new Set(people.filter((p) => p.confirmed || p.hidden).map((p) => p.id));
  const input = faces.map((f, i) => ({ vector: embeddings[i]!, picture: f.picture_id, fixed: f.person_id !== null && kept.has(f.person_id) ? f.person_id : null }));
  const pairs = await storedPairs(db, faces);
  step('faces and pairs read');
  const groups = groupFaces(input, { pairs });
  step('grouped');
  const fingerprint = (f: typeof faces, p: typeof people) =>
    JSON.stringify([f.map((x) => [x.id, x.person_id, x.picture_id]), p.map((x) => [x.id, x.confirmed, x.hidden])]);
  const before = fingerprint(faces, people);
  return db.transaction().execute(async (trx) => {
    await repo.lockPeople(trx);
    const [facesNow, peopleNow] = await read(trx);
    if (fingerprint(facesNow, peopleNow) !== before) return { faces: faces.length, people: 0, moved: 0, stale: true as const };
    // Each group's person: its confirmed person, else the unconfirmed person that gave it most faces (once), else a new one.
    const members = new Map<number, number[]>();
    groups.forEach((g, i) => members.set(g, [...(members.get(g) ?? []), i]));
    const used = new Set<number>();
    const target = new Map<number, number | null>();
    const byVotes: { group: number; person: number; votes: number }[] = [];
    for (const [g, indexes] of members) {
      const fixed = indexes.map((i) => faces[i]!.person_id).find((p) => p !== null && kept.has(p));
      if (fixed !== undefined && fixed !== null) {
        target.set(g, fixed);
        used.add(fixed);
        continue;
      }
      target.set(g, null);
      const votes = new Map<number, number>();
      for (const i of indexes) {
        const p = faces[i]!.person_id;
        if (p !== null) votes.set(p, (votes.get(p) ?? 0) + 1);
      }
      for (const [person, n] of votes) byVotes.push({ group: g, person, votes: n });
    }
    byVotes.sort((a, b) => b.votes - a.votes || a.person - b.person);
    for (const v of byVotes) {
      if (target.get(v.group) !== null || used.has(v.person)) continue;
      target.set(v.group, v.person);
      used.add(v.person);
    }
    const changed = new Set<number>();
    let moved = 0;
    for (const [g, indexes] of members) {
      let person = target.get(g) ?? null;
      if (person === null) {
        const created = await trx.insertInto('people').values({ name: null, centroid: vectorBytes(embeddings[indexes[0]!]!), face_count: 1 }).returning('id').executeTakeFirstOrThrow();
        person = created.id;
      }
      const moving = indexes.filter((i) => faces[i]!.person_id !== person).map((i) => faces[i]!.id);
      if (moving.length > 0) {
        for (const i of indexes) if (faces[i]!.person_id !== null) changed.add(faces[i]!.person_id!);
        for (let k = 0; k < moving.length; k += 1000) await trx.updateTable('faces').set({ person_id: person }).where('id', 'in', moving.slice(k, k + 1000)).execute();
        moved += moving.length;
        changed.add(person);
      }
    }
    for (const person of changed) await repo.recomputePerson(trx, person);
    return { faces: faces.length, people: members.size, moved };
  });
}

/**
 * The embeddings of `faces`, in their order, as one packed Float32Array (read in slices of ids, as hex:
 * people.vectors.ts). A face gone meanwhile is all zeros: it pairs with nothing, and the run is stale
 * at its end.
 */
async function embeddingsOf(db: Executor, faces: readonly { id: number }[]): Promise<Packed> {
  const longest = await db.selectFrom('faces').select((eb) => eb.fn.max(sql<number>`octet_length(embedding)`).as('bytes')).executeTakeFirst();
  const dim = Math.floor(Number(longest?.bytes ?? 0) / 4);
  const data = new Float32Array(faces.length * dim);
  const rowOf = new Map(faces.map((f, i) => [f.id, i]));
  for (let k = 0; k < faces.length; k += 2000) {
    const slice = faces.slice(k, k + 2000);
    const found = await db
      .selectFrom('faces')
      .select(['id', hexOf('embedding').as('hex')])
      .where('id', '>=', slice[0]!.id)
      .where('id', '<=', slice.at(-1)!.id)
      .execute();
    for (const row of found) {
      const at = rowOf.get(row.id);
      if (at !== undefined) vectorOfHex(row.hex.length > dim * 8 ? row.hex.slice(0, dim * 8) : row.hex, data, at * dim);
    }
  }
  return { data, dim };
}

/** The stored pairs at or above GROUP_SIMILARITY between `faces`, as indexes into it (a face not in it, taken out, is left out). */
async function storedPairs(db: Executor, faces: readonly { id: number }[]): Promise<[number, number][]> {
  const index = new Map(faces.map((f, i) => [f.id, i]));
  // Stored as 4-byte reals: a similarity of exactly the threshold may read back a hair under it.
  // Read as one text (a,b,a,b,...): a row per pair costs PGlite an object each.
  const row = await sql<{ pairs: string | null }>`
    select string_agg(a || ',' || b, ',' order by a, b) as pairs from face_pairs where similarity >= ${GROUP_SIMILARITY - 1e-6}`.execute(db);
  const ids = row.rows[0]?.pairs?.split(',') ?? [];
  const pairs: [number, number][] = [];
  for (let k = 0; k + 1 < ids.length; k += 2) {
    const i = index.get(Number(ids[k]));
    const j = index.get(Number(ids[k + 1]));
    if (i !== undefined && j !== undefined) pairs.push(i < j ? [i, j] : [j, i]);
  }
  return pairs;
}

/**
 * When GROUP_SIMILARITY is lower than the stored pairs were found at (a new release tuned it), or none
 * were found yet, every face is unpaired: the next storePairs finds all pairs again.
 */
async function pairsFoundAt(db: Executor): Promise<void> {
  const settings = await db.selectFrom('people_settings').select('pairs_similarity').executeTakeFirst();
  const at = settings?.pairs_similarity;
  if (at === null || at === undefined || at > GROUP_SIMILARITY + 1e-6) {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('face_pairs').execute();
      await trx.updateTable('faces').set({ paired: false }).where('paired', '=', true).execute();
      await trx.updateTable('people_settings').set({ pairs_similarity: GROUP_SIMILARITY }).execute();
    });
  }
}

/**
 * Finds and stores the similar pairs of the faces not yet paired, each with every other face (taken
 * out or not; `matrix` holds their embeddings); true when done, false when a face went meanwhile (its
 * picture deleted: the next run finds the pairs again).
 */
async function storePairs(db: Executor, faces: readonly { id: number; paired: boolean }[], matrix: Packed): Promise<boolean> {
  const fresh = faces.filter((f) => !f.paired).map((f) => f.id);
  if (fresh.length === 0) return true;
  const found = await newPairsYielding(
    matrix,
    faces.map((f) => !f.paired),
    GROUP_SIMILARITY,
  );
  try {
    await db.transaction().execute(async (trx) => {
      const rows = found.map(([i, j, similarity]) => ({ a: faces[i]!.id, b: faces[j]!.id, similarity }));
      for (let k = 0; k < rows.length; k += 1000) {
        await trx.insertInto('face_pairs').values(rows.slice(k, k + 1000)).onConflict((oc) => oc.columns(['a', 'b']).doNothing()).execute();
      }
      for (let k = 0; k < fresh.length; k += 1000) await trx.updateTable('faces').set({ paired: true }).where('id', 'in', fresh.slice(k, k + 1000)).execute();
    });
    return true;
  } catch (error) {
    // A face deleted since it was read (its picture went): its pairs cannot be stored; none were.
    if ((error as { code?: string }).code === '23503') return false;
    throw error;
  }
}

/** `people.regroup`: the grouping job now (an owner's button; the worker also runs it after each batch). */
export async function regroupNow(deps: AppDeps): Promise<{ faces: number; people: number; moved: number; stale?: true }> {
  if (!(await repo.peopleEnabled(deps.db))) throw new AppError('PRECONDITION_FAILED', peopleMessages.off);
  return regroup(deps.db);
}
