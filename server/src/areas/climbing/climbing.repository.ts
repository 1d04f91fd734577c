import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** The newest passes first, each with the name of the member who added it. */
export function listPasses(db: Executor, limit: number) {
  return db
    .selectFrom('climbing_passes as p')
    .leftJoin('users as u', 'u.id', 'p.added_by')
    .select(['p.id', 'p.guest', 'p.added_by', 'p.created_at', 'u.name as added_by_name'])
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .execute();
}

export function countSince(db: Executor, since: Date) {
  return db
    .selectFrom('climbing_passes')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.n));
}

/** Serialises adds, so two members adding the month's last pass at once cannot both get it. */
export async function lockPasses(db: Executor) {
  await sql`lock table climbing_passes in share row exclusive mode`.execute(db);
}

export function insertPass(db: Executor, userId: number, guest: string) {
  return db.insertInto('climbing_passes').values({ guest, added_by: userId }).returning(['id', 'guest', 'added_by', 'created_at']).executeTakeFirstOrThrow();
}

export function findPass(db: Executor, id: number) {
  return db.selectFrom('climbing_passes').select(['id', 'added_by']).where('id', '=', id).executeTakeFirst();
}

export function deletePass(db: Executor, id: number) {
  return db.deleteFrom('climbing_passes').where('id', '=', id).executeTakeFirst();
}
