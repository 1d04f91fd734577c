import type { HouseTask, HouseType } from '@site/contracts';
import type { Executor } from '../../db/database.ts';
import type { HouseTaskRecord } from './house.tables.ts';

const columns = ['id', 'task', 'status', 'type', 'quantity', 'note', 'repeat_days', 'due_at', 'completed_at', 'next_id'] as const;
type Row = Pick<HouseTaskRecord, (typeof columns)[number]>;

/** The stored row as the contract's task. */
export function toTask(row: Row): HouseTask {
  return {
    id: row.id,
    task: row.task,
    status: row.status,
    type: row.type,
    quantity: row.quantity,
    note: row.note,
    repeatDays: row.repeat_days,
    dueAt: row.due_at ? row.due_at.toISOString() : null,
    completedAt: row.completed_at ? row.completed_at.toISOString() : null,
  };
}

/** Open tasks, and the completed ones of the last `completedDays` days (the list would otherwise only grow). */
export function listTasks(db: Executor, completedSince: Date) {
  return db
    .selectFrom('house_tasks')
    .select(columns)
    .where((eb) => eb.or([eb('status', '!=', 'Complete'), eb('completed_at', '>=', completedSince)]))
    .orderBy('id')
    .execute();
}

export type NewTask = { task: string; type: HouseType; quantity: string | null; note: string | null; repeatDays: number | null; dueAt: Date | null };

export function insertTask(db: Executor, userId: number, t: NewTask) {
  return db
    .insertInto('house_tasks')
    .values({ task: t.task, status: t.type, type: t.type, quantity: t.quantity, note: t.note, repeat_days: t.repeatDays, due_at: t.dueAt, added_by: userId })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

/** Many new To Get items in one statement (a week's shopping adds a hundred at once). */
export async function insertToGet(db: Executor, userId: number, items: { task: string; quantity: string | null; note: string | null }[]) {
  if (items.length === 0) return;
  await db
    .insertInto('house_tasks')
    .values(items.map((t) => ({ task: t.task, status: 'To Get' as const, type: 'To Get' as const, quantity: t.quantity, note: t.note, added_by: userId })))
    .execute();
}

export function findTask(db: Executor, id: number) {
  return db.selectFrom('house_tasks').select([...columns, 'completed_by']).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Whether another open item of the same name (ignoring case) is on that list. */
export async function openNamesake(db: Executor, id: number, task: string, type: HouseType): Promise<boolean> {
  const row = await db
    .selectFrom('house_tasks')
    .select('id')
    .where('id', '!=', id)
    .where('status', '=', type)
    .where((eb) => eb(eb.fn('lower', ['task']), '=', eb.fn('lower', [eb.val(task)])))
    .executeTakeFirst();
  return row !== undefined;
}

export function completeTask(db: Executor, userId: number, id: number, at: Date, nextId: number | null) {
  return db
    .updateTable('house_tasks')
    .set({ status: 'Complete', completed_by: userId, completed_at: at, next_id: nextId })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirstOrThrow();
}

/** Back on its list, as if never completed. */
export function reopenTask(db: Executor, id: number, type: HouseType) {
  return db
    .updateTable('house_tasks')
    .set({ status: type, completed_by: null, completed_at: null, next_id: null })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirstOrThrow();
}

/** Removes an occurrence a completion added, unless it has been completed itself since. */
export async function deleteOpenTask(db: Executor, id: number) {
  await db.deleteFrom('house_tasks').where('id', '=', id).where('status', '!=', 'Complete').execute();
}

/** The open To Get items, locked: adding a recipe reads and rewrites their quantities. */
export function openToGet(db: Executor) {
  return db.selectFrom('house_tasks').select(['id', 'task', 'quantity', 'note']).where('status', '=', 'To Get').orderBy('id').forUpdate().execute();
}

export async function setQuantity(db: Executor, id: number, quantity: string | null, note: string | null) {
  await db.updateTable('house_tasks').set({ quantity, note }).where('id', '=', id).execute();
}
