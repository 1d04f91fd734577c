import { sql } from 'kysely';
import {
  HIDDEN_PEOPLE_LEVEL,
  peopleMessages,
  tagMessages,
  type FaceBox,
  type PeopleSettings,
  type PeopleStatus,
  type PersonCard,
  type PersonDetail,
  type PictureFace,
  type PictureTag,
  type UnassignedFace,
  UNASSIGNED_MAX,
} from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { usablePicture } from '../pictures/pictures.port.ts';
import { CARD_COLUMNS } from '../pictures/pictures.port.ts';
import { toPicture } from '../pictures/pictures.port.ts';
import * as repo from './people.repository.ts';
import { keepApart } from './people.apart.ts';

/**
 * People and things in the pictures. Faces exist only on approved pictures (only those are indexed),
 * and every count and list below joins the pictures again for `status = 'approved'`, so a member
 * sees people only through pictures the gallery shows every member. Guests (share links) have no
 * level and never reach these procedures.
 */

const boxOf = (box: number[]): FaceBox => ({ x: box[0] ?? 0, y: box[1] ?? 0, w: box[2] ?? 0, h: box[3] ?? 0 });

async function assertEnabled(db: Executor): Promise<void> {
  if (!(await repo.peopleEnabled(db))) throw new AppError('PRECONDITION_FAILED', peopleMessages.off);
}

/** Whether the member sees hidden people in general (Family), else only those they named (people.routes.ts). */
const seesAllHidden = (user: SessionUser) => user.level >= HIDDEN_PEOPLE_LEVEL;
/** Whether a person is not there for the member: hidden, and the member neither Family nor their namer. */
export const hiddenFrom = (user: SessionUser, person: { hidden: boolean; named_by: number | null }) => person.hidden && !seesAllHidden(user) && person.named_by !== user.id;

/**
 * `people.list`: one card per person with a face in an approved picture, most faces first; hidden
 * people only when asked, and then only those the member may see (all for Family, else their own naming).
 */
export async function list(deps: AppDeps, user: SessionUser, includeHidden = false): Promise<PersonCard[]> {
  if (!(await repo.peopleEnabled(deps.db))) return [];
  const rows = await sql<{
    id: number;
    name: string | null;
    hidden: boolean;
    face_count: string;
    picture_count: string;
    cover_picture: number;
    stem: string;
    box: number[];
    first: number[] | null;
  }>`
    select p.id, p.name, p.hidden, count(*) as face_count, count(distinct f.picture_id) as picture_count,
      (array_agg(f.picture_id order by f.score desc, f.id))[1] as cover_picture,
      min(array[pic.year, pic.month, pic.day]) filter (where pic.year > 0) as first,
      (array_agg(pic.stem order by f.score desc, f.id))[1] as stem,
      (array_agg(array_to_json(f.box)::text order by f.score desc, f.id))[1]::json as box
    from people p
    join faces f on f.person_id = p.id and not f.removed
    join pictures pic on pic.id = f.picture_id and pic.status = 'approved'
    where ${includeHidden ? (seesAllHidden(user) ? sql`true` : sql`(not p.hidden or p.named_by = ${user.id})`) : sql`not p.hidden`}
    group by p.id
    order by count(*) desc, p.id`.execute(deps.db);
  return rows.rows.map((r) => ({
    id: r.id,
    name: r.name,
    hidden: r.hidden,
    faceCount: Number(r.face_count),
    pictureCount: Number(r.picture_count),
    cover: { pictureId: r.cover_picture, stem: r.stem, box: boxOf(r.box) },
    first: r.first ? { year: r.first[0] ?? 0, month: r.first[1] ?? 0, day: r.first[2] ?? 0 } : null,
  }));
}

/**
 * `people.unassigned`: the faces that belong to nobody (a member took them out of a person) on approved
 * pictures, newest capture first, at most UNASSIGNED_MAX: each may be given to a person (people.assignFace).
 */
export async function unassigned(deps: AppDeps): Promise<UnassignedFace[]> {
  if (!(await repo.peopleEnabled(deps.db))) return [];
  const rows = await deps.db
    .selectFrom('faces')
    .innerJoin('pictures', 'pictures.id', 'faces.picture_id')
    .select(['faces.id', 'faces.picture_id', 'faces.box', 'pictures.stem'])
    .where('faces.person_id', 'is', null)
    .where('pictures.status', '=', 'approved')
    .orderBy('pictures.year', 'desc')
    .orderBy('pictures.month', 'desc')
    .orderBy('pictures.day', 'desc')
    .orderBy('faces.picture_id', 'desc')
    .orderBy('faces.id')
    .limit(UNASSIGNED_MAX)
    .execute();
  return rows.map((r) => ({ faceId: r.id, pictureId: r.picture_id, stem: r.stem, box: boxOf(r.box) }));
}

/** A person the member may see: a hidden one is not there (NOT_FOUND) for a Friend who did not name them. */
async function personRow(db: Executor, user: SessionUser, id: number) {
  const row = await db.selectFrom('people').select(['id', 'name', 'hidden', 'named_by']).where('id', '=', id).executeTakeFirst();
  if (!row || hiddenFrom(user, row)) throw new AppError('NOT_FOUND', peopleMessages.noSuchPerson);
  return row;
}

/** `people.get`: a person and the approved pictures their faces are in, newest capture first (the gallery's order), as ids and as the viewer's pictures. */
export async function get(deps: AppDeps, user: SessionUser, id: number): Promise<PersonDetail> {
  await assertEnabled(deps.db);
  const person = await personRow(deps.db, user, id);
  const rows = await deps.db
    .selectFrom('pictures')
    .select(CARD_COLUMNS.map((c) => `pictures.${c}` as const))
    .select((eb) => eb.selectFrom('users').select('users.name').whereRef('users.id', '=', 'pictures.uploaded_by').as('uploader'))
    .where('pictures.status', '=', 'approved')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('faces')
          .select('faces.id')
          .whereRef('faces.picture_id', '=', 'pictures.id')
          .where('faces.person_id', '=', id)
          .where('faces.removed', '=', false),
      ),
    )
    .orderBy('pictures.year', 'desc')
    .orderBy('pictures.month', 'desc')
    .orderBy('pictures.day', 'desc')
    .orderBy('pictures.id', 'desc')
    .execute();
  const pictures = rows.map(toPicture);
  return { id: person.id, name: person.name, hidden: person.hidden, pictureIds: pictures.map((p) => p.id), pictures };
}

/** Names a person (or takes the name away); the member who names them becomes their namer. */
export async function name(deps: AppDeps, user: SessionUser, id: number, newName: string | null): Promise<void> {
  await assertEnabled(deps.db);
  await personRow(deps.db, user, id);
  await deps.db
    .updateTable('people')
    .set({ name: newName, named_by: newName === null ? null : user.id, confirmed: true })
    .where('id', '=', id)
    .execute();
}

/** Hides or shows a person again: Family's, or the person's namer's; any other Friend is refused. */
export async function hide(deps: AppDeps, user: SessionUser, id: number, hidden: boolean): Promise<void> {
  await assertEnabled(deps.db);
  const person = await personRow(deps.db, user, id);
  if (!seesAllHidden(user) && person.named_by !== user.id) throw new AppError('FORBIDDEN', peopleMessages.hideNotYours);
  await deps.db.updateTable('people').set({ hidden }).where('id', '=', id).execute();
}

/**
 * `people.merge`: the people become the first of `ids` (which keeps its name, or takes the first name
 * among the others); its centroid is the mean of all their faces again.
 */
export async function merge(deps: AppDeps, user: SessionUser, ids: number[]): Promise<{ id: number }> {
  await assertEnabled(deps.db);
  const unique = [...new Set(ids)];
  if (unique.length < 2) throw new AppError('BAD_REQUEST', peopleMessages.mergeTwo);
  return deps.db.transaction().execute(async (trx) => {
    await repo.lockPeople(trx);
    const rows = await trx.selectFrom('people').select(['id', 'name', 'hidden', 'named_by']).where('id', 'in', unique).execute();
    if (rows.length !== unique.length || rows.some((r) => hiddenFrom(user, r))) throw new AppError('NOT_FOUND', peopleMessages.noSuchPerson);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const [keep, ...others] = unique as [number, ...number[]];
    const named = unique.map((id) => byId.get(id)).find((r) => r?.name != null);
    await trx.updateTable('faces').set({ person_id: keep }).where('person_id', 'in', others).execute();
    await keepApart(trx, keep, others);
    await trx.deleteFrom('people').where('id', 'in', others).execute();
    await trx
      .updateTable('people')
      .set({ name: named?.name ?? null, named_by: named?.named_by ?? null, confirmed: true })
      .where('id', '=', keep)
      .execute();
    await repo.recomputePerson(trx, keep);
    return { id: keep };
  });
}

/** `people.removeFace`: the face leaves its person for good (it joins nobody by itself again); a person left with no face is gone. */
export async function removeFace(deps: AppDeps, faceId: number): Promise<void> {
  await assertEnabled(deps.db);
  await deps.db.transaction().execute(async (trx) => {
    await repo.lockPeople(trx);
    const face = await trx
      .selectFrom('faces')
      .innerJoin('pictures', 'pictures.id', 'faces.picture_id')
      .select(['faces.person_id'])
      .where('faces.id', '=', faceId)
      .where('pictures.status', '=', 'approved')
      .executeTakeFirst();
    if (!face) throw new AppError('NOT_FOUND', peopleMessages.noSuchFace);
    await trx.updateTable('faces').set({ removed: true, person_id: null }).where('id', '=', faceId).execute();
    if (face.person_id !== null) await repo.recomputePerson(trx, face.person_id);
  });
}

/**
 * `people.inPicture`: the faces of a picture the member sees, with who they are; a face that belongs to
 * nobody (taken out of a person) is there without a person, to be given to one. Hidden people's faces are left out.
 */
export async function inPicture(deps: AppDeps, user: SessionUser, pictureId: number): Promise<PictureFace[]> {
  await usablePicture(deps.db, user, pictureId, false);
  if (!(await repo.peopleEnabled(deps.db))) return [];
  const rows = await deps.db
    .selectFrom('faces')
    .leftJoin('people', 'people.id', 'faces.person_id')
    .select(['faces.id', 'faces.person_id', 'faces.box', 'people.name', 'people.hidden'])
    .where('faces.picture_id', '=', pictureId)
    .orderBy(sql`faces.box[1]`)
    .orderBy('faces.id')
    .execute();
  return rows.filter((r) => !r.hidden).map((r) => ({ faceId: r.id, personId: r.person_id, name: r.name, box: boxOf(r.box) }));
}

export async function status(deps: AppDeps): Promise<PeopleStatus> {
  const { indexed, total } = await repo.indexProgress(deps.db);
  return { indexed, total };
}

export async function settings(deps: AppDeps): Promise<PeopleSettings> {
  return { enabled: await repo.peopleEnabled(deps.db), ...(await repo.indexProgress(deps.db)) };
}

export async function setEnabled(deps: AppDeps, enabled: boolean): Promise<void> {
  await deps.db
    .insertInto('people_settings')
    .values({ id: true, enabled })
    .onConflict((oc) => oc.column('id').doUpdateSet({ enabled }))
    .execute();
}

/** `tags.list`: a picture's tags, the detector's (with its confidence) and members' (each member's marked `mine`). */
export async function tags(deps: AppDeps, user: SessionUser, pictureId: number): Promise<PictureTag[]> {
  await usablePicture(deps.db, user, pictureId, false);
  const rows = await deps.db
    .selectFrom('picture_tags')
    .select(['tag', 'confidence', 'source', 'added_by'])
    .where('picture_id', '=', pictureId)
    .orderBy('source')
    .orderBy('confidence', (o) => o.desc().nullsLast())
    .orderBy('tag')
    .execute();
  return rows.map((r) => ({ tag: r.tag, confidence: r.confidence, source: r.source, mine: r.added_by === user.id }));
}

/** `tags.add`: the member's own tag on a picture they see (approved, or their own pending one); adding it twice keeps one. */
export async function addTag(deps: AppDeps, user: SessionUser, pictureId: number, tag: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await usablePicture(trx, user, pictureId, true).catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'FORBIDDEN' ? new AppError('FORBIDDEN', tagMessages.pending) : error;
    });
    await sql`
      insert into picture_tags (picture_id, tag, confidence, added_by, source) values (${pictureId}, ${tag}, null, ${user.id}, 'member')
      on conflict (picture_id, tag, added_by) where source = 'member' do nothing`.execute(trx);
  });
}

/** `tags.remove`: a member removes a tag they added (never the detector's or another member's). */
export async function removeTag(deps: AppDeps, user: SessionUser, pictureId: number, tag: string): Promise<void> {
  await usablePicture(deps.db, user, pictureId, false);
  const result = await deps.db
    .deleteFrom('picture_tags')
    .where('picture_id', '=', pictureId)
    .where('tag', '=', tag)
    .where('source', '=', 'member')
    .where('added_by', '=', user.id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new AppError('NOT_FOUND', tagMessages.noSuchTag);
}
