import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { CharityEntriesTable } from './finance.tables.ts';

type EntryValues = Pick<CharityEntriesTable, 'charitable' | 'recipient' | 'item' | 'date' | 'year'> & { value_cents: number | null };
type Documentation = { documentation_key: string | null; documentation_type: string | null; documentation_size: number | null };

export function listByYear(db: Executor, year: number) {
  return db.selectFrom('charity_entries').selectAll().where('year', '=', year).orderBy('date').orderBy('id').execute();
}

export function findEntry(db: Executor, id: number) {
  return db.selectFrom('charity_entries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Locks the row for the rest of the transaction (documentation replaced by two admins at once). */
export function lockEntry(db: Executor, id: number) {
  return db.selectFrom('charity_entries').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function insertEntry(db: Executor, values: EntryValues & Partial<Documentation>) {
  return db.insertInto('charity_entries').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateEntry(db: Executor, id: number, values: Partial<EntryValues & Documentation>) {
  return db
    .updateTable('charity_entries')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function deleteEntry(db: Executor, id: number) {
  return db.deleteFrom('charity_entries').where('id', '=', id).returningAll().executeTakeFirst();
}

/** Years that have entries, newest first. */
export async function years(db: Executor): Promise<number[]> {
  const rows = await db.selectFrom('charity_entries').select('year').distinct().orderBy('year', 'desc').execute();
  return rows.map((r) => r.year);
}

/** Sums in the database, as exact numeric text (never a float). */
export function totals(db: Executor, year: number) {
  return db
    .selectFrom('charity_entries')
    .select([
      sql<string>`coalesce(sum(value_cents), 0)::text`.as('all_cents'),
      sql<string>`coalesce(sum(value_cents) filter (where charitable), 0)::text`.as('charitable_cents'),
      sql<string>`count(*)::text`.as('count'),
    ])
    .where('year', '=', year)
    .executeTakeFirstOrThrow();
}
