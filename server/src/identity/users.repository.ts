import { sql } from 'kysely';
import { lookalikeKey } from '@site/contracts';
import type { Executor } from '../db/database.ts';

/**
 * The unique key of an account name: NFC, without invisible, bidi-control and control characters,
 * lower case; so 'Admin', 'admin' and '\u200badmin' are one name.
 */
export const nameKey = (name: string) => lookalikeKey(name);

export function findUserByName(db: Executor, name: string) {
  return db.selectFrom('users').selectAll().where('name_key', '=', nameKey(name)).executeTakeFirst();
}

export function findUserById(db: Executor, id: number) {
  return db.selectFrom('users').select(['id', 'name', 'level']).where('id', '=', id).executeTakeFirst();
}

/** Serialises sign-ups and level changes, so exactly one account can ever be the first. */
export async function lockUsers(trx: Executor): Promise<void> {
  await sql`lock table users in share row exclusive mode`.execute(trx);
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function insertUser(db: Executor, user: { name: string; passwordHash: string; level: number }) {
  return db
    .insertInto('users')
    .values({ name: user.name, name_key: nameKey(user.name), password_hash: user.passwordHash, level: user.level })
    .returning(['id', 'name', 'level'])
    .executeTakeFirstOrThrow();
}

export function setPasswordHash(db: Executor, userId: number, passwordHash: string) {
  return db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}
