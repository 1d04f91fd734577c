import type { Executor } from '../db/database.ts';

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
