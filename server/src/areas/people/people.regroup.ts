import { peopleMessages } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { GROUP_SIMILARITY, groupFaces, similarPairsYielding } from './people.grouping.ts';
import * as repo from './people.repository.ts';

/**
 * The grouping job (issue 48): every face that is not taken out is grouped again with average linkage
 * (people.grouping.ts), the members' decisions kept: a confirmed person (or a hidden one) keeps its
 * faces and its id, and may gain faces; the other people are dissolved and made again, each new group
 * keeping the id of the unconfirmed person that gave it most faces (so a page's address mostly
 * survives), or a new id. The quadratic part (the similar pairs of faces) runs outside any transaction
 * and lets the event loop run between blocks; the result is written in one transaction under the
 * clustering lock, only if the faces and the people are still as they were read (a face indexed or a
 * member's decision meanwhile: this run is dropped, `{ stale: true }`, and the next one sees it). The
 * people worker runs it after each batch of indexing, `people.regroup` on demand.
 */
export async function regroup(db: Executor): Promise<{ faces: number; people: number; moved: number; stale?: true }> {
  const read = (ex: Executor) =>
    Promise.all([
      ex.selectFrom('faces').select(['id', 'picture_id', 'person_id', 'embedding']).where('removed', '=', false).orderBy('id').execute(),
      ex.selectFrom('people').select(['id', 'confirmed', 'hidden']).orderBy('id').execute(),
    ]);
  const [faces, people] = await read(db);
  const kept = new Set(people.filter((p) => p.confirmed || p.hidden).map((p) => p.id));
  const input = faces.map((f) => ({ vector: f.embedding, picture: f.picture_id, fixed: f.person_id !== null && kept.has(f.person_id) ? f.person_id : null }));
  const pairs = await similarPairsYielding(input, GROUP_SIMILARITY);
  const groups = groupFaces(input, { pairs });
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
        const first = faces[indexes[0]!]!;
        const created = await trx.insertInto('people').values({ name: null, centroid: first.embedding, face_count: 1 }).returning('id').executeTakeFirstOrThrow();
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

/** `people.regroup`: the grouping job now (an owner's button; the worker also runs it after each batch). */
export async function regroupNow(deps: AppDeps): Promise<{ faces: number; people: number; moved: number; stale?: true }> {
  if (!(await repo.peopleEnabled(deps.db))) throw new AppError('PRECONDITION_FAILED', peopleMessages.off);
  return regroup(deps.db);
}
