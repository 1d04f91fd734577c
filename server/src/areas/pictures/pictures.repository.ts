import { sql, type ExpressionBuilder } from 'kysely';
import type { CaptureDate } from '@site/contracts';
import type { Executor } from '../../db/database.ts';
import type { Tables } from '../../db/schema.ts';
import type { PictureRecord, PicturesTable } from './pictures.tables.ts';

/** Who is looking: admins see every pending picture, others only their own. */
export type Looker = { id: number; admin: boolean };

/** One capture month with the number of pictures the looker sees in it. */
export type MonthGroup = { year: number; month: number; count: number };

type Eb = ExpressionBuilder<Tables, 'pictures'>;
const visibleTo = (looker: Looker) => (eb: Eb) =>
  looker.admin ? eb.lit(true) : eb.or([eb('status', '=', 'approved'), eb('uploaded_by', '=', looker.id)]);

/**
 * The months holding pictures the looker sees, newest first, with their counts: the approved counts
 * kept in picture_months plus the pending pictures this looker may see (few; a partial index).
 */
export async function monthGroups(db: Executor, looker: Looker): Promise<MonthGroup[]> {
  const [approved, pending] = await Promise.all([
    db.selectFrom('picture_months').select(['year', 'month', 'approved']).where('approved', '>', 0).execute(),
    db
      .selectFrom('pictures')
      .select(['year', 'month', (eb) => eb.fn.countAll<string>().as('n')])
      .where('status', '=', 'pending')
      .$if(!looker.admin, (q) => q.where('uploaded_by', '=', looker.id))
      .groupBy(['year', 'month'])
      .execute(),
  ]);
  const byKey = new Map<number, MonthGroup>();
  for (const row of approved) byKey.set(row.year * 16 + row.month, { year: row.year, month: row.month, count: row.approved });
  for (const row of pending) {
    const key = row.year * 16 + row.month;
    const group = byKey.get(key);
    if (group) group.count += Number(row.n);
    else byKey.set(key, { year: row.year, month: row.month, count: Number(row.n) });
  }
  return [...byKey.entries()].sort((a, b) => b[0] - a[0]).map(([, g]) => g);
}

export type PictureRow = PictureRecord & { uploader: string | null };

function baseSelect(db: Executor) {
  return db
    .selectFrom('pictures')
    .leftJoin('users', 'users.id', 'pictures.uploaded_by')
    .selectAll('pictures')
    .select('users.name as uploader');
}

/**
 * Pictures the looker sees within one year (and month, unless `month` is null), newest first,
 * skipping `offset` and returning at most `limit`.
 */
export function inGroup(
  db: Executor,
  looker: Looker,
  where: { year: number; month: number | null },
  offset: number,
  limit: number,
): Promise<PictureRow[]> {
  return baseSelect(db)
    .where('pictures.year', '=', where.year)
    .$if(where.month !== null, (q) => q.where('pictures.month', '=', where.month ?? 0))
    .where((eb) => visibleTo(looker)(eb as unknown as Eb))
    .orderBy('pictures.year', 'desc')
    .orderBy('pictures.month', 'desc')
    .orderBy('pictures.day', 'desc')
    .orderBy('pictures.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

/**
 * Pictures the looker sees from the start of one month downwards (older), newest first: a page of
 * a page-size gallery starts inside the month the counts say, so the offset stays within it.
 */
export function fromMonth(
  db: Executor,
  looker: Looker,
  start: { year: number; month: number },
  offset: number,
  limit: number,
): Promise<PictureRow[]> {
  return baseSelect(db)
    .where((eb) => eb(eb.refTuple('pictures.year', 'pictures.month'), '<=', eb.tuple(start.year, start.month)))
    .where((eb) => visibleTo(looker)(eb as unknown as Eb))
    .orderBy('pictures.year', 'desc')
    .orderBy('pictures.month', 'desc')
    .orderBy('pictures.day', 'desc')
    .orderBy('pictures.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

export function findById(db: Executor, id: number): Promise<PictureRow | undefined> {
  return baseSelect(db).where('pictures.id', '=', id).executeTakeFirst();
}

export function findByStem(db: Executor, stem: string): Promise<PictureRecord | undefined> {
  return db.selectFrom('pictures').selectAll().where('stem', '=', stem).executeTakeFirst();
}

export function pendingList(db: Executor): Promise<PictureRow[]> {
  return baseSelect(db).where('pictures.status', '=', 'pending').orderBy('pictures.id', 'asc').execute();
}

export async function pendingCount(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('pictures')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Moves an approved picture's month count by `delta` (same transaction as the change itself). */
export async function countMonth(db: Executor, date: { year: number; month: number }, delta: number): Promise<void> {
  await db
    .insertInto('picture_months')
    .values({ year: date.year, month: date.month, approved: Math.max(delta, 0) })
    .onConflict((oc) => oc.columns(['year', 'month']).doUpdateSet({ approved: sql`picture_months.approved + ${delta}` }))
    .execute();
}

export type NewPicture = Omit<PicturesTable, 'id' | 'created_at' | 'thumb_status' | 'thumb_width' | 'thumb_height' | 'has_display' | 'has_poster'>;

export async function insertPicture(db: Executor, values: NewPicture): Promise<PictureRecord> {
  const row = await db.insertInto('pictures').values(values).returningAll().executeTakeFirstOrThrow();
  if (row.status === 'approved') await countMonth(db, row, 1);
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
  if (row) await countMonth(db, row, 1);
  return row;
}

export async function deletePicture(db: Executor, id: number): Promise<PictureRecord | undefined> {
  const row = await db.deleteFrom('pictures').where('id', '=', id).returningAll().executeTakeFirst();
  if (row?.status === 'approved') await countMonth(db, row, -1);
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
  if (row.status === 'approved' && (before.year !== row.year || before.month !== row.month)) {
    await countMonth(db, before, -1);
    await countMonth(db, row, 1);
  }
  return row;
}

// ---- the background queue ----

export type ClaimedJob = { id: number; picture_id: number; attempts: number };

/**
 * Takes the oldest job that is due and not held by another worker, and holds it for `leaseSeconds`
 * (a worker that dies lets it go when the lease ends). One statement: FOR UPDATE SKIP LOCKED, so two
 * servers on one PostgreSQL never take the same job; PGlite runs it too.
 */
export async function claimJob(db: Executor, leaseSeconds: number): Promise<ClaimedJob | undefined> {
  const result = await sql<ClaimedJob>`
    update picture_jobs set locked_until = now() + make_interval(secs => ${leaseSeconds}), attempts = attempts + 1
    where id = (
      select id from picture_jobs
      where run_after <= now() and (locked_until is null or locked_until < now())
      order by id
      for update skip locked
      limit 1
    )
    returning id, picture_id, attempts`.execute(db);
  return result.rows[0];
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
  derived: { thumb: 'ready' | 'none'; width: number | null; height: number | null; display: boolean; poster: boolean },
): Promise<boolean> {
  const result = await db
    .updateTable('pictures')
    .set({
      thumb_status: derived.thumb,
      thumb_width: derived.width,
      thumb_height: derived.height,
      has_display: derived.display,
      has_poster: derived.poster,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function jobCount(db: Executor): Promise<number> {
  const row = await db.selectFrom('picture_jobs').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
