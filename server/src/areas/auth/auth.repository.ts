import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

export const nameKey = (name: string) => name.toLowerCase();

export function findUserByName(db: Executor, name: string) {
  return db.selectFrom('users').selectAll().where('name_key', '=', nameKey(name)).executeTakeFirst();
}

export function findUserById(db: Executor, id: number) {
  return db.selectFrom('users').select(['id', 'name', 'level']).where('id', '=', id).executeTakeFirst();
}

/** Serialises sign-ups, so exactly one account can ever be the first. */
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

export function insertSession(db: Executor, session: { tokenHash: string; userId: number; expiresAt: Date; now: Date }) {
  return db
    .insertInto('sessions')
    .values({ token_hash: session.tokenHash, user_id: session.userId, expires_at: session.expiresAt, renewed_at: session.now })
    .execute();
}

export function findSession(db: Executor, tokenHash: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.user_id', 'sessions.expires_at', 'sessions.renewed_at', 'users.name', 'users.level'])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export function renewSession(db: Executor, tokenHash: string, now: Date, expiresAt: Date) {
  return db.updateTable('sessions').set({ renewed_at: now, expires_at: expiresAt }).where('token_hash', '=', tokenHash).execute();
}

export function deleteSession(db: Executor, tokenHash: string) {
  return db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

export function deleteExpiredSessions(db: Executor, now: Date) {
  return db.deleteFrom('sessions').where('expires_at', '<', now).execute();
}
