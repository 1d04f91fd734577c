import { sql, type RawBuilder } from 'kysely';
import { MAX_ROW_ID, type CaptureDate } from '@site/contracts';
import type { Executor } from '../../db/database.ts';
import { FENCE_STRIDE, type GalleryCounts, type Position } from './pictures.paging.ts';
import type { PictureRecord, PicturesTable } from './pictures.tables.ts';
import { recordEvent } from '../notifications/notifications.events.ts';

/** Who is looking: admins see every pending picture, others only their own. */
export type Looker = { id: number; admin: boolean };

/**
 * The gallery's rule of what a looker sees: every approved picture, and pending ones as Looker says.
 * Over `pictures`, or a table with copies of its status and uploader (picture_search).
 */
export function seenBy(looker: Looker, table: 'pictures' | 'picture_search' = 'pictures'): RawBuilder<boolean> {
  if (looker.admin) return sql<boolean>`true`;
  return sql<boolean>`(${sql.ref(`${table}.status`)} = 'approved' or ${sql.ref(`${table}.uploaded_by`)} = ${looker.id})`;
}

/** The token: picture_paging's rows together (see the migration); null when it has none. */
const tokenOf = (db: Executor) =>
  db.selectFrom('picture_paging').select(sql<string | null>`string_agg(token::text, ' ' order by token)`.as('token'));

/**
 * Everything paging needs, in one statement (one snapshot): the token, the approved pictures per
 * day (picture_days), the pending ones (few; a partial index) and the fences of the days with many
 * pictures. Read again only when the token has changed.
 */
export async function galleryCounts(db: Executor): Promise<GalleryCounts> {
  // One row of int arrays: far cheaper to build and hand over than thousands of rows or JSON.
  type Ints = number[] | null;
  type Row = {
    token: string | null;
    day_year: Ints;
    day_month: Ints;
    day_day: Ints;
    day_approved: Ints;
    pending_uploader: (number | null)[] | null;
    pending_year: Ints;
    pending_month: Ints;
    pending_day: Ints;
    pending_id: Ints;
    fence_year: Ints;
    fence_month: Ints;
    fence_day: Ints;
    fence_id: Ints;
  };
  const result = await sql<Row>`
    select * from
      (${tokenOf(db)}) as token,
      (select array_agg(year) as day_year, array_agg(month) as day_month, array_agg(day) as day_day, array_agg(approved) as day_approved
        from picture_days where approved > 0) as days,
      (select array_agg(uploaded_by) as pending_uploader, array_agg(year) as pending_year, array_agg(month) as pending_month,
          array_agg(day) as pending_day, array_agg(id) as pending_id
        from pictures where status = 'pending') as pending,
      (select array_agg(d.year) as fence_year, array_agg(d.month) as fence_month, array_agg(d.day) as fence_day, array_agg(f.id) as fence_id
        from picture_days as d
        cross join lateral (
          select id from (
            select id, row_number() over (order by id desc) - 1 as n from pictures
            where (year, month, day) = (d.year, d.month, d.day) and status = 'approved'
          ) as ranked
          where n > 0 and n % ${FENCE_STRIDE} = 0
        ) as f
        where d.approved > ${FENCE_STRIDE}) as fences`.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error('galleryCounts returned no row');
  const at = (values: Ints, i: number) => values?.[i] ?? 0;
  return {
    token: row.token,
    approved: (row.day_year ?? []).map((year, i) => ({ year, month: at(row.day_month, i), day: at(row.day_day, i), count: at(row.day_approved, i) })),
    pending: (row.pending_id ?? []).map((id, i) => ({
      uploader: row.pending_uploader?.[i] ?? null,
      year: at(row.pending_year, i),
      month: at(row.pending_month, i),
      day: at(row.pending_day, i),
      id,
    })),
    fences: (row.fence_id ?? []).map((id, i) => ({ year: at(row.fence_year, i), month: at(row.fence_month, i), day: at(row.fence_day, i), id })),
  };
}

/** The token alone: whether counts read earlier are still the database's. */
export async function pagingToken(db: Executor): Promise<string | null> {
  const row = await tokenOf(db).executeTakeFirst();
  return row?.token ?? null;
}

/** The columns a picture in the gallery needs (toPicture). */
export const CARD_COLUMNS = [
  'id',
  'stem',
  'file_type',
  'caption',
  'year',
  'month',
  'day',
  'status',
  'uploaded_by',
  'thumb_status',
  'thumb_width',
  'thumb_height',
  'has_display',
  'has_poster',
  'preview_needs',
  'preview_too_large',
] as const;

export type PictureCard = Pick<PictureRecord, (typeof CARD_COLUMNS)[number]> & { uploader: string | null };

/**
 * At most `limit` pictures the looker sees, newest first, the first of them `offset` pictures
 * after day `from`'s newest (or after its picture `fromId`, a fence): one backward range scan of
 * the capture-order index that skips only inside that day, fewer than FENCE_STRIDE pictures plus
 * the looker's own pending ones. One row back, whatever the page holds: the pictures as one JSON
 * array (much cheaper to hand over than rows of columns) and the token read in the same
 * statement, so the caller knows which counts the pictures match.
 */
export async function pageRows(
  db: Executor,
  looker: Looker,
  from: Position & { limit: number },
): Promise<{ token: string | null; pictures: PictureCard[] }> {
  const page = db
    .selectFrom('pictures')
    .select(CARD_COLUMNS)
    .select((eb) => eb.selectFrom('users').select('users.name').whereRef('users.id', '=', 'pictures.uploaded_by').as('uploader'))
    .where((eb) => eb(eb.refTuple('year', 'month', 'day', 'id'), '<=', eb.tuple(from.year, from.month, from.day, from.fromId ?? MAX_ROW_ID)))
    .where(seenBy(looker))
    .orderBy('year', 'desc')
    .orderBy('month', 'desc')
    .orderBy('day', 'desc')
    .orderBy('id', 'desc')
    .offset(from.offset)
    .limit(from.limit);
  const row = await db
    .selectFrom(page.as('p'))
    .select((eb) => [
      tokenOf(db).as('token'),
      eb.fn.jsonAgg('p').orderBy('p.year', 'desc').orderBy('p.month', 'desc').orderBy('p.day', 'desc').orderBy('p.id', 'desc').as('pictures'),
    ])
    .executeTakeFirstOrThrow();
  return { token: row.token, pictures: row.pictures ?? [] };
}

export type PictureRow = PictureRecord & { uploader: string | null };

function baseSelect(db: Executor) {
  return db
    .selectFrom('pictures')
    .leftJoin('users', 'users.id', 'pictures.uploaded_by')
    .selectAll('pictures')
    .select('users.name as uploader');
}

export function findById(db: Executor, id: number): Promise<PictureRow | undefined> {
  return baseSelect(db).where('pictures.id', '=', id).executeTakeFirst();
}

export function findByStem(db: Executor, stem: string): Promise<PictureRecord | undefined> {
  return db.selectFrom('pictures').selectAll().where('stem', '=', stem).executeTakeFirst();
}

/** Pending pictures whose bytes no older picture holds: the approval queue never shows the same bytes twice. */
function approvalQueue(db: Executor) {
  return db
    .selectFrom('pictures')
    .where('pictures.status', '=', 'pending')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('pictures as same').select('same.id').whereRef('same.sha256', '=', 'pictures.sha256').whereRef('same.id', '<', 'pictures.id'),
        ),
      ),
    );
}

/** The queue, each with its uploader's name, or the name a guest gave on an upload link (areas/albums). */
export function pendingList(db: Executor): Promise<(PictureRow & { guest_name: string | null })[]> {
  return approvalQueue(db)
    .leftJoin('users', 'users.id', 'pictures.uploaded_by')
    .leftJoin('picture_guests', 'picture_guests.picture_id', 'pictures.id')
    .selectAll('pictures')
    .select(['users.name as uploader', 'picture_guests.guest_name'])
    .orderBy('pictures.id', 'asc')
    .execute();
}

export async function pendingCount(db: Executor): Promise<number> {
  const row = await approvalQueue(db)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Moves an approved picture's day count by `delta` (same transaction as the change itself). */
export async function countDay(db: Executor, date: CaptureDate, delta: number): Promise<void> {
  await db
    .insertInto('picture_days')
    .values({ year: date.year, month: date.month, day: date.day, approved: Math.max(delta, 0) })
    .onConflict((oc) => oc.columns(['year', 'month', 'day']).doUpdateSet({ approved: sql`picture_days.approved + ${delta}` }))
    .execute();
}

export type NewPicture = Omit<
  PicturesTable,
  'id' | 'created_at' | 'thumb_status' | 'thumb_width' | 'thumb_height' | 'has_display' | 'has_poster' | 'preview_needs' | 'preview_too_large'
>;

/**
 * Holds, until the transaction ends, the right to store these bytes: two uploads of the same file at
 * once are taken one after the other, so the second finds the first's row.
 */
export async function lockHash(db: Executor, sha256: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${sha256}, 20261125))`.execute(db);
}

/** The oldest picture holding these bytes, if any. */
export function findBySha256(db: Executor, sha256: string): Promise<PictureRow | undefined> {
  return baseSelect(db).where('pictures.sha256', '=', sha256).orderBy('pictures.id', 'asc').limit(1).executeTakeFirst();
}

/** Pictures from before hashes were kept: up to `limit` still to hash, after `afterId`. */
export function unhashed(db: Executor, afterId: number, limit: number): Promise<Pick<PictureRecord, 'id' | 'stem' | 'file_type'>[]> {
  return db
    .selectFrom('pictures')
    .select(['id', 'stem', 'file_type'])
    .where('sha256', 'is', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function setSha256(db: Executor, id: number, sha256: string): Promise<void> {
  await db.updateTable('pictures').set({ sha256 }).where('id', '=', id).execute();
}

/** Of these stems, the ones a row names. */
export async function knownStems(db: Executor, stems: readonly string[]): Promise<Set<string>> {
  if (stems.length === 0) return new Set();
  const rows = await db.selectFrom('pictures').select('stem').where('stem', 'in', stems).execute();
  return new Set(rows.map((r) => r.stem));
}

/** Every picture's original, a page at a time after `afterId` (the start-up check of MEDIA_DIR). */
export function originalsAfter(db: Executor, afterId: number, limit: number): Promise<Pick<PictureRecord, 'id' | 'stem' | 'file_type'>[]> {
  return db.selectFrom('pictures').select(['id', 'stem', 'file_type']).where('id', '>', afterId).orderBy('id').limit(limit).execute();
}

export async function insertPicture(db: Executor, values: NewPicture): Promise<PictureRecord> {
  const row = await db.insertInto('pictures').values(values).returningAll().executeTakeFirstOrThrow();
  if (row.status === 'approved') await countDay(db, row, 1);
  else await recordEvent(db, { kind: 'picture.waiting', actorId: row.uploaded_by, subjectId: row.id, title: 'A picture waits for approval', body: row.caption || 'No caption', url: '/admin/pictures' });
  await db.insertInto('picture_jobs').values({ picture_id: row.id, locked_until: null, last_error: null }).execute();
  return row;
}

export async function approve(db: Executor, id: number): Promise<PictureRecord | undefined> {
  const row = await db
    .updateTable('pictures')
    .set({ status: 'approved' })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (row) await countDay(db, row, 1);
  if (row?.uploaded_by) await recordEvent(db, { kind: 'picture.approved', userId: row.uploaded_by, subjectId: row.id, title: 'Your picture was approved', body: row.caption || 'It is in the gallery now.', url: '/personal/pictures' });
  return row;
}

export async function deletePicture(db: Executor, id: number): Promise<PictureRecord | undefined> {
  const row = await db.deleteFrom('pictures').where('id', '=', id).returningAll().executeTakeFirst();
  if (row?.status === 'approved') await countDay(db, row, -1);
  return row;
}

export async function updatePicture(db: Executor, id: number, caption: string, date: CaptureDate): Promise<PictureRecord | undefined> {
  const before = await db.selectFrom('pictures').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  if (!before) return undefined;
  const row = await db
    .updateTable('pictures')
    .set({ caption, year: date.year, month: date.month, day: date.day })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (row.status === 'approved' && (before.year !== row.year || before.month !== row.month || before.day !== row.day)) {
    await countDay(db, before, -1);
    await countDay(db, row, 1);
  }
  return row;
}

// ---- the background queue ----

export type ClaimedJob = { id: number; picture_id: number; attempts: number; owner: string };

/**
 * Who a job is queued for: the guests of the upload link that sent it (as one member of their own),
 * else the member who uploaded it, else nobody (`none`). SQL over the job's picture `p` and its guest row `g`.
 */
const queueOwner = sql<string>`coalesce('link:' || g.share_id, 'user:' || p.uploaded_by, 'none')`;

/** The decoder time in QUEUE_WINDOW_SECONDS past which one who queues waits behind everyone under it. */
export const QUEUE_WORK_SHARE_MS = 60_000;
export const QUEUE_WINDOW_SECONDS = 600;

/**
 * Takes the next due job not held by another worker, and holds it for `leaseSeconds` (a worker that
 * dies lets it go when the lease ends). Fair between those who queue (each member, and the guests of
 * each upload link as one more member): round-robin that holds after each job, since the queue
 * remembers when it last served each one (`picture_queue_turns.served_at`, written as the job is
 * taken) and takes the job of the one served longest ago (never served first), their oldest. So a
 * member's six files and a family member's one later are taken first, the family member's, second,
 * ... and the decoder's time per one who queues is bounded: whoever used more than
 * QUEUE_WORK_SHARE_MS of it in the last QUEUE_WINDOW_SECONDS (recordWork) waits behind everyone who
 * has not. FOR UPDATE SKIP LOCKED, so two servers on one PostgreSQL never take the same job; PGlite
 * runs it too.
 */
export async function claimJob(db: Executor, leaseSeconds: number): Promise<ClaimedJob | undefined> {
  const result = await sql<ClaimedJob>`
    with claimed as (
      update picture_jobs set locked_until = now() + make_interval(secs => ${leaseSeconds}), attempts = attempts + 1
      where id = (
        select j.id from picture_jobs j
        join pictures p on p.id = j.picture_id
        left join picture_guests g on g.picture_id = j.picture_id
        left join picture_queue_turns t on t.owner = ${queueOwner}
        where j.run_after <= now() and (j.locked_until is null or j.locked_until < now())
        order by
          coalesce(t.work_ms >= ${QUEUE_WORK_SHARE_MS} and t.window_started > now() - make_interval(secs => ${QUEUE_WINDOW_SECONDS}), false),
          t.served_at asc nulls first,
          j.id
        for update of j skip locked
        limit 1
      )
      returning id, picture_id, attempts
    ), owned as (
      select c.id, c.picture_id, c.attempts, ${queueOwner} as owner
      from claimed c join pictures p on p.id = c.picture_id left join picture_guests g on g.picture_id = c.picture_id
    ), turn as (
      insert into picture_queue_turns (owner, served_at, work_ms, window_started)
      select owner, clock_timestamp(), 0, now() from owned
      on conflict (owner) do update set served_at = excluded.served_at
    )
    select id, picture_id, attempts, owner from owned`.execute(db);
  return result.rows[0];
}

/** Counts `ms` of decoder time to `owner`'s window (a window older than QUEUE_WINDOW_SECONDS starts again). */
export async function recordWork(db: Executor, owner: string, ms: number): Promise<void> {
  const fresh = sql<boolean>`window_started > now() - make_interval(secs => ${QUEUE_WINDOW_SECONDS})`;
  await db
    .updateTable('picture_queue_turns')
    .set({
      work_ms: sql<number>`case when ${fresh} then work_ms + ${Math.round(ms)} else ${Math.round(ms)} end`,
      window_started: sql<Date>`case when ${fresh} then window_started else now() end`,
    })
    .where('owner', '=', owner)
    .execute();
}

export async function finishJob(db: Executor, jobId: number): Promise<void> {
  await db.deleteFrom('picture_jobs').where('id', '=', jobId).execute();
}

export async function retryJob(db: Executor, jobId: number, error: string, delaySeconds: number): Promise<void> {
  await db
    .updateTable('picture_jobs')
    .set({ locked_until: null, last_error: error.slice(0, 2000), run_after: sql`now() + make_interval(secs => ${delaySeconds})` })
    .where('id', '=', jobId)
    .execute();
}

export async function saveDerived(
  db: Executor,
  id: number,
  derived: { thumb: 'ready' | 'none'; width: number | null; height: number | null; display: boolean; poster: boolean; needs: string | null; tooLarge: boolean },
): Promise<boolean> {
  const result = await db
    .updateTable('pictures')
    .set({
      thumb_status: derived.thumb,
      thumb_width: derived.width,
      thumb_height: derived.height,
      has_display: derived.display,
      has_poster: derived.poster,
      preview_needs: derived.needs,
      preview_too_large: derived.tooLarge,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function jobCount(db: Executor): Promise<number> {
  const row = await db.selectFrom('picture_jobs').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- places ----

export type StoredPlace = { lat: number; lon: number; town: string | null; country: string | null };

/**
 * Records where a picture was taken (null: its file was read and holds no position); once per picture.
 * A null keeps a place already recorded: the one a takeout's sidecar gave at import (pictures.import.ts)
 * stands when the file itself holds none.
 */
export async function savePlace(db: Executor, pictureId: number, place: StoredPlace | null): Promise<void> {
  const values = { picture_id: pictureId, lat: place?.lat ?? null, lon: place?.lon ?? null, town: place?.town ?? null, country: place?.country ?? null };
  // A picture deleted meanwhile has nothing to record.
  await db
    .insertInto('picture_places')
    .columns(['picture_id', 'lat', 'lon', 'town', 'country'])
    .expression((eb) =>
      eb
        .selectFrom('pictures')
        .select([
          'id',
          sql<number | null>`${values.lat}::double precision`.as('lat'),
          sql<number | null>`${values.lon}::double precision`.as('lon'),
          sql<string | null>`${values.town}::text`.as('town'),
          sql<string | null>`${values.country}::text`.as('country'),
        ])
        .where('id', '=', pictureId),
    )
    .onConflict((oc) =>
      place === null ? oc.column('picture_id').doNothing() : oc.column('picture_id').doUpdateSet((eb) => ({ lat: eb.ref('excluded.lat'), lon: eb.ref('excluded.lon'), town: eb.ref('excluded.town'), country: eb.ref('excluded.country') })),
    )
    .execute();
}

/** Pictures whose file was never read for a position: up to `limit` after `afterId`. */
export function unplaced(db: Executor, afterId: number, limit: number): Promise<Pick<PictureRecord, 'id' | 'stem' | 'file_type'>[]> {
  return db
    .selectFrom('pictures')
    .select(['id', 'stem', 'file_type'])
    .where('id', '>', afterId)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('picture_places').select('picture_id').whereRef('picture_places.picture_id', '=', 'pictures.id'))))
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function placeOf(db: Executor, pictureId: number) {
  return db.selectFrom('picture_places').selectAll().where('picture_id', '=', pictureId).executeTakeFirst();
}

/** Makes the search document of every picture that has none (the triggers keep the others). */
export async function refreshMissingSearch(db: Executor): Promise<void> {
  await sql`select picture_search_refresh(array(
    select p.id from pictures p where not exists (select from picture_search s where s.picture_id = p.id)))`.execute(db);
}
