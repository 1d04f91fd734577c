import {
  CHORE_DEFAULT_POINTS,
  choreMessages,
  dateIn,
  firstOnOrAfter,
  nextAfterDone,
  todayIn,
  type Chore,
  type ChoreChangeResult,
  type ChoreCreateInput,
  type ChoreDoneInput,
  type ChoreEvery,
  type ChorePoints,
  type ChoreUndoInput,
  type ChoreUpdateInput,
  type ChoreWho,
} from '@site/contracts';
import { sql } from 'kysely';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { applyOnce } from '../../client-changes/client-changes.ts';
import { memberId } from './plan.service.ts';
import type { ChoreRecord } from './plan.tables.ts';

const everyOf = (row: ChoreRecord): ChoreEvery =>
  row.every_days !== null ? { days: row.every_days } : row.weekdays !== null ? { weekdays: row.weekdays.split(',').map(Number) } : { monthDay: row.month_day ?? 1 };

const scheduleColumns = (every: ChoreEvery) => ({
  every_days: 'days' in every ? every.days : null,
  weekdays: 'weekdays' in every ? every.weekdays.join(',') : null,
  month_day: 'monthDay' in every ? every.monthDay : null,
});

type Member = { chore_id: number; position: number; name: string };

/** Chores with their members and last completion, read in three queries whatever their number. */
async function load(db: Executor, today: string, ids?: number[]): Promise<Chore[]> {
  let query = db.selectFrom('chores').selectAll().orderBy('next_date').orderBy('name').orderBy('id');
  if (ids) query = query.where('id', 'in', ids);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  const choreIds = rows.map((r) => r.id);
  const members: Member[] = await db
    .selectFrom('chore_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.chore_id', 'm.position', 'u.name'])
    .where('m.chore_id', 'in', choreIds)
    .orderBy('m.position')
    .execute();
  const last = await db
    .selectFrom('chore_done as d')
    .leftJoin('users as u', 'u.id', 'd.user_id')
    .select(['d.chore_id', 'd.done_at', 'u.name'])
    .distinctOn('d.chore_id')
    .where('d.chore_id', 'in', choreIds)
    .orderBy('d.chore_id')
    .orderBy('d.id', 'desc')
    .execute();
  return rows.map((row) => {
    const names = members.filter((m) => m.chore_id === row.id).map((m) => m.name);
    const who: ChoreWho = row.who === 'anyone' ? { anyone: true } : row.who === 'one' ? { one: names[0] ?? '' } : { turns: names };
    const done = last.find((l) => l.chore_id === row.id);
    return {
      id: row.id,
      name: row.name,
      next: row.next_date,
      assignee: row.who === 'anyone' ? null : (names[row.turn % Math.max(names.length, 1)] ?? null),
      points: row.points,
      overdue: row.next_date < today,
      every: everyOf(row),
      who,
      last: done ? { by: done.name, at: done.done_at.toISOString() } : null,
    };
  });
}

async function one(db: Executor, today: string, id: number): Promise<Chore> {
  const [chore] = await load(db, today, [id]);
  if (!chore) throw new AppError('NOT_FOUND', choreMessages.notFound);
  return chore;
}

const today = (deps: AppDeps) => todayIn(deps.config.timeZone);

/** Every chore, soonest first: whose it is, when it is next due, and whether that is past. */
export function list(deps: AppDeps): Promise<Chore[]> {
  return load(deps.db, today(deps));
}

async function setMembers(trx: Executor, choreId: number, who: ChoreWho): Promise<void> {
  await trx.deleteFrom('chore_members').where('chore_id', '=', choreId).execute();
  const names = 'one' in who ? [who.one] : 'turns' in who ? who.turns : [];
  const ids: number[] = [];
  for (const name of names) ids.push(await memberId(trx, name));
  if (ids.length > 0) await trx.insertInto('chore_members').values(ids.map((user_id, position) => ({ chore_id: choreId, position, user_id }))).execute();
}

const whoKind = (who: ChoreWho) => ('one' in who ? 'one' : 'turns' in who ? 'turns' : 'anyone') as 'one' | 'turns' | 'anyone';

export async function create(deps: AppDeps, user: SessionUser, input: ChoreCreateInput): Promise<{ id: number }> {
  return deps.db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('chores')
      .values({ name: input.name, ...scheduleColumns(input.every), who: whoKind(input.who), turn: 0, next_date: firstOnOrAfter(input.every, today(deps)), points: input.points ?? CHORE_DEFAULT_POINTS, created_by: user.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    await setMembers(trx, id, input.who);
    return { id };
  });
}

/** Changes what is given; a new schedule sets the next date anew from today, new members start with the first's turn. */
export async function update(deps: AppDeps, input: ChoreUpdateInput): Promise<Chore> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('chores').select('id').where('id', '=', input.id).forUpdate().executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', choreMessages.notFound);
    await trx
      .updateTable('chores')
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.points !== undefined && { points: input.points }),
        ...(input.every !== undefined && { ...scheduleColumns(input.every), next_date: firstOnOrAfter(input.every, today(deps)) }),
        ...(input.who !== undefined && { who: whoKind(input.who), turn: 0 }),
        updated_at: sql`now()`,
      })
      .where('id', '=', input.id)
      .execute();
    if (input.who !== undefined) await setMembers(trx, input.id, input.who);
    return one(trx, today(deps), input.id);
  });
}

export async function remove(deps: AppDeps, id: number): Promise<{ ok: true }> {
  const gone = await deps.db.deleteFrom('chores').where('id', '=', id).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) throw new AppError('NOT_FOUND', choreMessages.notFound);
  return { ok: true };
}

async function locked(trx: Executor, id: number) {
  const row = await trx.selectFrom('chores').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', choreMessages.notFound);
  return row;
}

/**
 * Done: records who did it and when, moves the next date by the schedule and passes the turn to the
 * member after whoever did it (after the one whose turn it was, when someone outside the turns did).
 * Sent with the due date the member saw (`due`) and finding another date due, someone did it
 * meanwhile: from the offline queue that answers `alreadyDone` and records nothing; at once it is refused.
 */
export function done(deps: AppDeps, user: SessionUser, input: ChoreDoneInput): Promise<ChoreChangeResult> {
  return applyOnce(deps.db, user.id, 'chores.done', input.clientId, async (trx) => {
    const row = await locked(trx, input.id);
    const now = new Date();
    const on = dateIn(deps.config.timeZone, now);
    if (input.due !== undefined && input.due !== row.next_date) {
      if (input.clientId === undefined) throw new AppError('CONFLICT', choreMessages.alreadyDone);
      return { ...(await one(trx, on, row.id)), conflict: 'alreadyDone' as const };
    }
    const members = await trx.selectFrom('chore_members').select(['position', 'user_id']).where('chore_id', '=', row.id).orderBy('position').execute();
    let turn = row.turn;
    if (row.who === 'turns' && members.length > 0) {
      const mine = members.find((m) => m.user_id === user.id);
      turn = ((mine ? mine.position : row.turn) + 1) % members.length;
    }
    await trx
      .insertInto('chore_done')
      .values({ chore_id: row.id, user_id: user.id, done_at: now, done_on: on, due: row.next_date, points: row.points, prev_turn: row.turn, prev_next: row.next_date })
      .execute();
    await trx.updateTable('chores').set({ turn, next_date: nextAfterDone(everyOf(row), row.next_date, on), updated_at: now }).where('id', '=', row.id).execute();
    return one(trx, on, row.id);
  });
}

/** Undo: takes the last completion back, with the date and the turn it moved. */
export function undo(deps: AppDeps, user: SessionUser, input: ChoreUndoInput): Promise<ChoreChangeResult> {
  return applyOnce(deps.db, user.id, 'chores.undo', input.clientId, async (trx) => {
    const row = await locked(trx, input.id);
    const last = await trx.selectFrom('chore_done').selectAll().where('chore_id', '=', row.id).orderBy('id', 'desc').limit(1).executeTakeFirst();
    if (!last) throw new AppError('CONFLICT', choreMessages.nothingToUndo);
    await trx.deleteFrom('chore_done').where('id', '=', last.id).execute();
    await trx.updateTable('chores').set({ turn: last.prev_turn, next_date: last.prev_next, updated_at: sql`now()` }).where('id', '=', row.id).execute();
    return one(trx, today(deps), row.id);
  });
}

/** The month's points per member (the day each was done, in the family's zone), most first. */
export async function points(deps: AppDeps, month: string): Promise<ChorePoints> {
  const rows = await deps.db
    .selectFrom('chore_done as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select(['u.name', (eb) => eb.fn.sum<string>('d.points').as('points')])
    .where('d.done_on', '>=', `${month}-01`)
    .where('d.done_on', '<=', `${month}-31`)
    .groupBy('u.name')
    .execute();
  return rows.map((r) => ({ name: r.name, points: Number(r.points) })).sort((a, b) => b.points - a.points || a.name.localeCompare(b.name));
}
