import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { FoundFace, FoundThing } from './people.child.ts';
import { addToMean, assignFaces, meanOf, unit, type Candidate } from './people.cluster.ts';
import { hexOf, vectorBytes, vectorOfHex } from './people.vectors.ts';

export type ClaimedIndex = { picture_id: number; attempts: number; stem: string; file_type: string; thumb_status: string; has_display: boolean; has_poster: boolean };

/**
 * Claims the next approved picture to index, with a lease (a worker killed mid-picture leaves the
 * row pending; its lease runs out and the picture is claimed again). A picture waits until its
 * thumbnail job has run, since its display size or poster is what is read.
 */
export async function claimIndex(db: Executor, leaseSeconds: number): Promise<ClaimedIndex | undefined> {
  const result = await sql<ClaimedIndex>`
    with next as (
      select i.picture_id from picture_index i
      join pictures p on p.id = i.picture_id
      where i.state = 'pending' and i.run_after <= now() and (i.locked_until is null or i.locked_until < now())
        and p.status = 'approved' and p.thumb_status <> 'pending'
      order by i.run_after, i.picture_id
      limit 1
      for update of i skip locked
    )
    update picture_index i set locked_until = now() + make_interval(secs => ${leaseSeconds}), attempts = i.attempts + 1
    from next, pictures p
    where i.picture_id = next.picture_id and p.id = i.picture_id
    returning i.picture_id, i.attempts, p.stem, p.file_type, p.thumb_status, p.has_display, p.has_poster`.execute(db);
  return result.rows[0];
}

export async function retryIndex(db: Executor, pictureId: number, error: string, delaySeconds: number): Promise<void> {
  await db
    .updateTable('picture_index')
    .set({ locked_until: null, last_error: error.slice(0, 500), run_after: sql<Date>`now() + make_interval(secs => ${delaySeconds})` })
    .where('picture_id', '=', pictureId)
    .execute();
}

export async function failIndex(db: Executor, pictureId: number, error: string): Promise<void> {
  await db.updateTable('picture_index').set({ state: 'failed', locked_until: null, last_error: error.slice(0, 500), indexed_at: sql<Date>`now()` }).where('picture_id', '=', pictureId).execute();
}

/** Serialises the clustering between workers (and instances): each picture's faces are placed against every earlier picture's. */
async function lockPeople(db: Executor): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('people.clustering'))`.execute(db);
}

/**
 * Stores what the child found in one picture and marks it indexed, in one transaction (the caller's):
 * the faces (placed into people), the detector's tags. A picture indexed again (a retry after a crash
 * that happened before this commit found nothing stored) replaces nothing twice: the faces are keyed
 * (picture_id, ordinal) and the model's tags (picture_id, tag).
 */
export async function saveIndex(trx: Executor, pictureId: number, faces: readonly FoundFace[], things: readonly FoundThing[]): Promise<boolean> {
  const row = await trx.selectFrom('picture_index').select('state').where('picture_id', '=', pictureId).forUpdate().executeTakeFirst();
  // Deleted meanwhile, or indexed by another worker whose lease this one outlived.
  if (!row || row.state !== 'pending') return false;
  await lockPeople(trx);
  const known = await trx.selectFrom('faces').select('ordinal').where('picture_id', '=', pictureId).execute();
  const stored = new Set(known.map((k) => k.ordinal));
  const fresh = faces.map((face, ordinal) => ({ ...face, ordinal, unit: unit(face.embedding) })).filter((f) => !stored.has(f.ordinal));
  if (fresh.length > 0) {
    const people = await trx.selectFrom('people').select(['id', hexOf('centroid').as('centroid'), 'face_count']).execute();
    const candidates: Candidate[] = people.map((p) => ({ id: p.id, centroid: vectorOfHex(p.centroid), faceCount: p.face_count }));
    const byId = new Map(candidates.map((c) => [c.id, c]));
    const chosen = assignFaces(
      fresh.map((f) => f.unit),
      candidates,
    );
    for (const [i, face] of fresh.entries()) {
      let personId = chosen[i] ?? null;
      const person = personId === null ? undefined : byId.get(personId);
      if (person) {
        await trx
          .updateTable('people')
          .set({ centroid: vectorBytes(addToMean(person.centroid, person.faceCount, face.unit)), face_count: person.faceCount + 1 })
          .where('id', '=', person.id)
          .execute();
      } else {
        const created = await trx.insertInto('people').values({ name: null, centroid: vectorBytes(face.unit), face_count: 1 }).returning('id').executeTakeFirstOrThrow();
        personId = created.id;
      }
      await trx
        .insertInto('faces')
        .values({ picture_id: pictureId, ordinal: face.ordinal, person_id: personId, box: face.box, embedding: vectorBytes(face.unit), score: face.score })
        .execute();
    }
  }
  const best = new Map<string, number>();
  for (const thing of things) best.set(thing.label, Math.max(best.get(thing.label) ?? 0, thing.score));
  for (const [tag, confidence] of best) {
    await sql`
      insert into picture_tags (picture_id, tag, confidence, added_by, source) values (${pictureId}, ${tag.slice(0, 40)}, ${confidence}, null, 'model')
      on conflict (picture_id, tag) where source = 'model' do update set confidence = excluded.confidence`.execute(trx);
  }
  await trx.updateTable('picture_index').set({ state: 'done', locked_until: null, last_error: null, indexed_at: sql<Date>`now()` }).where('picture_id', '=', pictureId).execute();
  return true;
}

/** The person's centroid and count again from the faces it holds now; a person left with none is removed. */
export async function recomputePerson(trx: Executor, personId: number): Promise<void> {
  const faces = await trx.selectFrom('faces').select(hexOf('embedding').as('embedding')).where('person_id', '=', personId).where('removed', '=', false).execute();
  if (faces.length === 0) {
    await trx.deleteFrom('people').where('id', '=', personId).execute();
    return;
  }
  await trx
    .updateTable('people')
    .set({ centroid: vectorBytes(meanOf(faces.map((f) => vectorOfHex(f.embedding)))), face_count: faces.length })
    .where('id', '=', personId)
    .execute();
}

export { lockPeople };

export async function peopleEnabled(db: Executor): Promise<boolean> {
  const row = await db.selectFrom('people_settings').select('enabled').executeTakeFirst();
  return row?.enabled ?? true;
}

/** Approved pictures, and how many of them were indexed (done or given up on). */
export async function indexProgress(db: Executor): Promise<{ indexed: number; total: number; failed: number }> {
  const row = await sql<{ indexed: string; total: string; failed: string }>`
    select count(*) filter (where i.state <> 'pending') as indexed, count(*) as total, count(*) filter (where i.state = 'failed') as failed
    from pictures p left join picture_index i on i.picture_id = p.id
    where p.status = 'approved'`.execute(db);
  const r = row.rows[0];
  return { indexed: Number(r?.indexed ?? 0), total: Number(r?.total ?? 0), failed: Number(r?.failed ?? 0) };
}
