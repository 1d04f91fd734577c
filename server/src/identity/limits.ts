import { hash } from 'node:crypto';
import { sql } from 'kysely';
import type { Database, Executor } from '../db/database.ts';

/** One counter: what is counted, how many attempts the window allows, and the window. */
export type LimitRule = { key: string; max: number; windowMs: number };

/**
 * Login and sign-up attempts counted in the database (table auth_limits), so the limits hold across
 * server processes and restarts. An attempt is counted BEFORE the password is hashed or checked
 * (`reserve`), so attempts in flight count: a hundred parallel requests find the counter already at
 * the limit. A successful login gives its attempt back (`release`) or clears the account's counter.
 * Keys are hashed, so their size is fixed whatever a client sends; expired rows are swept.
 */
export type AuthLimits = {
  /** Counts one attempt against every rule; false when any of them is over its limit. */
  reserve(rules: readonly LimitRule[]): Promise<boolean>;
  /** Counts one attempt on the key and returns the count in the window (this one included). */
  hit(key: string, windowMs: number): Promise<number>;
  /** Gives back one attempt counted by reserve. */
  release(key: string): Promise<void>;
  /** The count on the key in its window now (0 when none or its window has passed), counting nothing. */
  peek(key: string): Promise<number>;
  /** Forgets a counter (a successful login clears its account's failures). */
  clear(key: string): Promise<void>;
  /** Deletes counters whose window has passed. */
  sweep(): Promise<void>;
};

/** The stored form of a key: SHA-256 hex of the kind and the value, 64 characters whatever the value. */
export const limitKey = (kind: string, value: string) => hash('sha256', `${kind}:${value}`, 'hex');

export function createAuthLimits(db: Database): AuthLimits {
  return {
    async reserve(rules) {
      if (rules.length === 0) return true;
      // One statement per rule: each is atomic in the database (insert or increment), so two
      // processes counting the same key at once both see the other's attempt.
      let allowed = true;
      for (const rule of rules) {
        const hits = await countAttempt(db, rule);
        if (hits > rule.max) allowed = false;
      }
      return allowed;
    },
    hit: (key, windowMs) => countAttempt(db, { key, max: Number.MAX_SAFE_INTEGER, windowMs }),
    async peek(key) {
      const row = await db.selectFrom('auth_limits').select('hits').where('key', '=', key).where('window_ends', '>', sql<Date>`now()`).executeTakeFirst();
      return row?.hits ?? 0;
    },
    async release(key) {
      await db.updateTable('auth_limits').set({ hits: sql`greatest(hits - 1, 0)` }).where('key', '=', key).execute();
    },
    async clear(key) {
      await db.deleteFrom('auth_limits').where('key', '=', key).execute();
    },
    async sweep() {
      await db.deleteFrom('auth_limits').where('window_ends', '<', sql<Date>`now()`).execute();
    },
  };
}

async function countAttempt(db: Executor, rule: LimitRule): Promise<number> {
  const seconds = rule.windowMs / 1000;
  const result = await sql<{ hits: number }>`
    insert into auth_limits (key, hits, window_ends)
    values (${rule.key}, 1, now() + make_interval(secs => ${seconds}))
    on conflict (key) do update set
      hits = case when auth_limits.window_ends <= now() then 1 else auth_limits.hits + 1 end,
      window_ends = case when auth_limits.window_ends <= now() then excluded.window_ends else auth_limits.window_ends end
    returning hits`.execute(db);
  return Number(result.rows[0]?.hits ?? 0);
}
