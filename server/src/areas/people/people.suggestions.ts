import { sql } from 'kysely';
import { peopleMessages, type PeopleSuggestion } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { hiddenFrom, merge } from './people.service.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import * as repo from './people.repository.ts';
import { ordered } from './people.apart.ts';
import { hexOf, vectorOfHex } from './people.vectors.ts';

/**
 * "Same person?" (issue 48): pairs of people who may be one, asked of members most likely first, and
 * their answers. A person's centroid is the mean of its faces' unit embeddings, so the dot product of
 * two centroids is the mean similarity over all pairs of their faces: the average linkage the
 * re-grouping joins at GROUP_SIMILARITY. Pairs from SUGGEST_SIMILARITY up are asked; pairs a member
 * answered, pairs with a face in one picture, and hidden people never are.
 */
export const SUGGEST_SIMILARITY = 0.4;
export const SUGGESTIONS_MAX = 20;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += (a[k] ?? 0) * (b[k] ?? 0);
  return s;
}

/** `people.suggestions()`: most likely first, at most SUGGESTIONS_MAX. */
export async function suggestions(deps: AppDeps): Promise<PeopleSuggestion[]> {
  if (!(await repo.peopleEnabled(deps.db))) return [];
  const people = (await deps.db.selectFrom('people').select(['id', hexOf('centroid').as('centroid')]).where('hidden', '=', false).orderBy('id').execute()).map((p) => ({
    id: p.id,
    centroid: vectorOfHex(p.centroid),
  }));
  const faces = await deps.db
    .selectFrom('faces')
    .innerJoin('pictures', 'pictures.id', 'faces.picture_id')
    .select(['faces.person_id', 'faces.picture_id'])
    .where('faces.removed', '=', false)
    .where('pictures.status', '=', 'approved')
    .where('faces.person_id', 'is not', null)
    .execute();
  const pictures = new Map<number, Set<number>>();
  for (const f of faces) if (f.person_id !== null) pictures.set(f.person_id, (pictures.get(f.person_id) ?? new Set()).add(f.picture_id));
  const answered = new Set((await deps.db.selectFrom('people_apart').select(['a', 'b']).execute()).map((r) => `${r.a}:${r.b}`));
  const visible = people.filter((p) => pictures.has(p.id));
  const out: PeopleSuggestion[] = [];
  for (let i = 0; i < visible.length; i++) {
    for (let j = i + 1; j < visible.length; j++) {
      const a = visible[i]!;
      const b = visible[j]!;
      const similarity = dot(a.centroid, b.centroid);
      if (similarity < SUGGEST_SIMILARITY || answered.has(`${a.id}:${b.id}`)) continue;
      const pa = pictures.get(a.id)!;
      const pb = pictures.get(b.id)!;
      if ([...pa].some((p) => pb.has(p))) continue;
      out.push({ a: a.id, b: b.id, similarity: Math.round(similarity * 1000) / 1000 });
    }
  }
  return out.sort((x, y) => y.similarity - x.similarity || x.a - y.a || x.b - y.b).slice(0, SUGGESTIONS_MAX);
}

/** `people.answer`: "yes" merges them (as people.merge: `a` stays); "no" keeps them apart for good. */
export async function answer(deps: AppDeps, user: SessionUser, a: number, b: number, same: boolean): Promise<{ id: number | null }> {
  if (a === b) throw new AppError('BAD_REQUEST', peopleMessages.samePerson);
  if (same) return merge(deps, user, [a, b]);
  if (!(await repo.peopleEnabled(deps.db))) throw new AppError('PRECONDITION_FAILED', peopleMessages.off);
  await deps.db.transaction().execute(async (trx) => {
    await repo.lockPeople(trx);
    const rows = await trx.selectFrom('people').select(['id', 'hidden', 'named_by']).where('id', 'in', [a, b]).execute();
    if (rows.length !== 2 || rows.some((r) => hiddenFrom(user, r))) throw new AppError('NOT_FOUND', peopleMessages.noSuchPerson);
    // Both are decided about now: the re-grouping keeps each whole and never joins the two.
    await trx.updateTable('people').set({ confirmed: true }).where('id', 'in', [a, b]).execute();
    const [x, y] = ordered(a, b);
    await sql`insert into people_apart (a, b) values (${x}, ${y}) on conflict do nothing`.execute(trx);
  });
  return { id: null };
}

/** `people.assignFace`: the face (taken out, alone, or someone else's) is this person's, or a new person's called `name`. */
export async function assignFace(deps: AppDeps, user: SessionUser, faceId: number, target: { personId?: number; name?: string }): Promise<{ id: number }> {
  if (!(await repo.peopleEnabled(deps.db))) throw new AppError('PRECONDITION_FAILED', peopleMessages.off);
  return deps.db.transaction().execute(async (trx) => {
    await repo.lockPeople(trx);
    const face = await trx
      .selectFrom('faces')
      .innerJoin('pictures', 'pictures.id', 'faces.picture_id')
      .select(['faces.person_id', 'faces.picture_id', 'faces.embedding'])
      .where('faces.id', '=', faceId)
      .where('pictures.status', '=', 'approved')
      .executeTakeFirst();
    if (!face) throw new AppError('NOT_FOUND', peopleMessages.noSuchFace);
    let personId = target.personId;
    if (personId === undefined) {
      const created = await trx
        .insertInto('people')
        .values({ name: target.name ?? null, named_by: target.name ? user.id : null, centroid: face.embedding, face_count: 1, confirmed: true })
        .returning('id')
        .executeTakeFirstOrThrow();
      personId = created.id;
    } else {
      const person = await trx.selectFrom('people').select(['id', 'hidden', 'named_by']).where('id', '=', personId).executeTakeFirst();
      if (!person || hiddenFrom(user, person)) throw new AppError('NOT_FOUND', peopleMessages.noSuchPerson);
      await trx.updateTable('people').set({ confirmed: true }).where('id', '=', personId).execute();
    }
    await trx.updateTable('faces').set({ person_id: personId, removed: false }).where('id', '=', faceId).execute();
    if (face.person_id !== null && face.person_id !== personId) await repo.recomputePerson(trx, face.person_id);
    await repo.recomputePerson(trx, personId);
    return { id: personId };
  });
}
