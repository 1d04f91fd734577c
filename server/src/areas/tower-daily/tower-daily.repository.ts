import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

export interface DailyRow {
  rounds: number;
  floors: number;
  won: boolean;
}

/**
 * Keeps the member's best game of the day in one statement: inserts the first, and replaces an earlier
 * one only when this is better (won, then floors, then rounds). Returns false when the earlier one stays.
 */
export async function keepBest(db: Executor, userId: number, date: string, score: DailyRow, actions: readonly unknown[]): Promise<boolean> {
  const row = await db
    .insertInto('tower_daily_results')
    .values({ user_id: userId, date, ...score, actions: JSON.stringify(actions) })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'date'])
        .doUpdateSet({
          rounds: (eb) => eb.ref('excluded.rounds'),
          floors: (eb) => eb.ref('excluded.floors'),
          won: (eb) => eb.ref('excluded.won'),
          actions: (eb) => eb.ref('excluded.actions'),
          updated_at: sql<Date>`now()`,
        })
        .where(
          sql<boolean>`(excluded.won, excluded.floors, excluded.rounds) > (tower_daily_results.won, tower_daily_results.floors, tower_daily_results.rounds)`,
        ),
    )
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The day's table: each member's best, best first (ties: who got there first). */
export function dayTable(db: Executor, date: string) {
  return db
    .selectFrom('tower_daily_results as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['u.name', 'r.rounds', 'r.floors', 'r.won'])
    .where('r.date', '=', date)
    .orderBy('r.won', 'desc')
    .orderBy('r.floors', 'desc')
    .orderBy('r.rounds', 'desc')
    .orderBy('r.updated_at')
    .orderBy('u.name')
    .execute();
}

export function findResult(db: Executor, userId: number, date: string) {
  return db.selectFrom('tower_daily_results').selectAll().where('user_id', '=', userId).where('date', '=', date).executeTakeFirst();
}

/** Each member's totals over the days from..to (inclusive): one best row per member and day is stored. */
export function standings(db: Executor, from: string, to: string) {
  return db
    .selectFrom('tower_daily_results as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select([
      'u.name',
      sql<number>`count(*)::int`.as('days'),
      sql<number>`(count(*) filter (where r.won))::int`.as('wins'),
      sql<number>`sum(r.floors)::int`.as('floors'),
      sql<number>`sum(r.rounds)::int`.as('rounds'),
    ])
    .where('r.date', '>=', from)
    .where('r.date', '<=', to)
    .groupBy(['u.id', 'u.name'])
    .orderBy('wins', 'desc')
    .orderBy('floors', 'desc')
    .orderBy('rounds', 'asc')
    .orderBy('u.name')
    .execute();
}
