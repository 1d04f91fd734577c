import type { Executor } from '../db/database.ts';

export type SessionClient = { ip: string | null; userAgent: string | null };

export function insertSession(db: Executor, session: { tokenHash: string; userId: number; expiresAt: Date; now: Date; client?: SessionClient }) {
  return db
    .insertInto('sessions')
    .values({
      token_hash: session.tokenHash,
      user_id: session.userId,
      expires_at: session.expiresAt,
      renewed_at: session.now,
      user_agent: session.client?.userAgent ?? null,
      ip: session.client?.ip ?? null,
    })
    .execute();
}

/** An account's sessions, most recently used first (the account page's device list). */
export function listSessionsOf(db: Executor, userId: number, now: Date) {
  return db
    .selectFrom('sessions')
    .select(['token_hash', 'created_at', 'renewed_at', 'user_agent', 'ip'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('renewed_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
}

/** Ends an account's sessions but `keep` (null: all of them); the hashes of those ended. */
export async function deleteSessionsOf(db: Executor, userId: number, keep: string | null): Promise<string[]> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep !== null) query = query.where('token_hash', '!=', keep);
  const rows = await query.returning('token_hash').execute();
  return rows.map((r) => r.token_hash);
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
