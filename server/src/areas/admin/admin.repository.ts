import type { Executor } from '../../db/database.ts';

export function listUsers(db: Executor) {
  return db.selectFrom('users').select(['name', 'level']).orderBy('name_key').orderBy('name').execute();
}

/** How many accounts have exactly this level (3: the admins; 0: those waiting for approval). */
export function countAtLevel(db: Executor, level: number) {
  return db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('level', '=', level)
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.n));
}

export function setLevel(db: Executor, userId: number, level: number) {
  return db.updateTable('users').set({ level }).where('id', '=', userId).returning(['id', 'name', 'level']).executeTakeFirstOrThrow();
}
