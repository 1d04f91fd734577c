import { hash, randomBytes } from 'node:crypto';
import type { Level } from '@site/contracts';
import type { Database } from '../db/database.ts';
import * as repo from './sessions.repository.ts';
import { findUserById } from './users.repository.ts';
import type { SessionUser } from './session-user.ts';

export type SessionLookup = { user: SessionUser; tokenHash: string; renewed: boolean };

export type SessionStore = {
  readonly maxAgeSeconds: number;
  /** Starts a session for the user; returns the cookie token (only its hash is stored). */
  create(userId: number): Promise<{ token: string; tokenHash: string }>;
  lookup(token: string): Promise<SessionLookup | null>;
  /**
   * The answer `lookup` would give, when the cache alone gives it (a known token, fresh entries, no
   * renewal due); undefined means ask `lookup`. Lets a signed-in request skip every await.
   */
  cached(token: string): SessionLookup | undefined;
  end(tokenHash: string): Promise<void>;
  /** Forget the cached account so its next request reads the new level from the database. */
  forgetUser(userId: number): void;
  clearCache(): void;
  /** A change another process made (session-events.ts): 'user:<id>' or 'session:<token hash>'. */
  applyChange(message: string): void;
  /** While false every lookup reads the database (the change listener is down). */
  setCacheTrusted(trusted: boolean): void;
};

const RENEW_EVERY_MS = 60 * 60 * 1000;
/** How long a cached session or account is trusted before it is read again (other processes, the CLI). */
const SESSION_TRUST_MS = 60_000;
const USER_TRUST_MS = 5_000;
const MAX_ENTRIES = 50_000;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** One-shot crypto.hash: the same hex digest as createHash('sha256'), without a Hash object per call. */
/** A session's answer: from the cache at once when it has one (nearly every signed-in request), else from `lookup`. */
export function findSession(store: SessionStore, token: string): SessionLookup | Promise<SessionLookup | null> {
  return store.cached(token) ?? store.lookup(token);
}

export const hashToken = (token: string) => hash('sha256', token, 'hex');

type CachedSession = { userId: number; expiresAt: number; renewedAt: number; checkedAt: number };
type CachedUser = { user: SessionUser; checkedAt: number };

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (map.size >= MAX_ENTRIES) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}

/**
 * Sessions live in the database, with an in-memory cache in front so that a signed-in request costs
 * a hash and two map lookups. Logout and level changes go through this store and drop the cached
 * entries at once; the sliding expiry is written at most hourly per session.
 */
export function createSessionStore(db: Database, opts: { sessionDays: number; now?: () => number }): SessionStore {
  const now = opts.now ?? Date.now;
  const lifetimeMs = opts.sessionDays * 24 * 60 * 60 * 1000;
  const sessions = new Map<string, CachedSession>();
  const users = new Map<number, CachedUser>();
  // The hash of each live session's token, so that a signed-in request costs no SHA-256. (The tokens
  // are in this process's memory anyway while their requests are served; only the database must
  // never hold them.) Only tokens that named a live session when they were looked up are remembered.
  const hashes = new Map<string, string>();
  let trusted = true;

  // When the cache answers without the database: the same rules for `cached` and `lookup`.
  const freshSession = (entry: CachedSession | undefined, at: number): entry is CachedSession =>
    trusted && entry !== undefined && at - entry.checkedAt < SESSION_TRUST_MS;
  const freshUser = (userId: number, at: number): SessionUser | undefined => {
    const cached = users.get(userId);
    return trusted && cached && at - cached.checkedAt < USER_TRUST_MS ? cached.user : undefined;
  };
  const renewalDue = (entry: CachedSession, at: number) => at - entry.renewedAt >= RENEW_EVERY_MS;

  async function loadSession(tokenHash: string, at: number): Promise<CachedSession | null> {
    const row = await repo.findSession(db, tokenHash);
    if (!row) return null;
    const entry = {
      userId: row.user_id,
      expiresAt: row.expires_at.getTime(),
      renewedAt: row.renewed_at.getTime(),
      checkedAt: at,
    };
    remember(sessions, tokenHash, entry);
    remember(users, row.user_id, { user: { id: row.user_id, name: row.name, level: row.level as Level }, checkedAt: at });
    return entry;
  }

  async function loadUser(userId: number, at: number): Promise<SessionUser | null> {
    const row = await findUserById(db, userId);
    if (!row) {
      users.delete(userId);
      return null;
    }
    const user = { id: row.id, name: row.name, level: row.level as Level };
    remember(users, userId, { user, checkedAt: at });
    return user;
  }

  return {
    maxAgeSeconds: Math.floor(lifetimeMs / 1000),

    async create(userId) {
      const token = randomBytes(32).toString('base64url');
      const tokenHash = hashToken(token);
      const at = now();
      await repo.insertSession(db, { tokenHash, userId, expiresAt: new Date(at + lifetimeMs), now: new Date(at) });
      users.delete(userId);
      return { token, tokenHash };
    },

    cached(token) {
      const tokenHash = hashes.get(token);
      if (tokenHash === undefined) return undefined;
      const entry = sessions.get(tokenHash);
      const at = now();
      if (!freshSession(entry, at) || entry.expiresAt <= at || renewalDue(entry, at)) return undefined;
      const user = freshUser(entry.userId, at);
      return user && { user, tokenHash, renewed: false };
    },

    async lookup(token) {
      if (!TOKEN_SHAPE.test(token)) return null;
      const known = hashes.get(token);
      const tokenHash = known ?? hashToken(token);
      const at = now();
      let entry = sessions.get(tokenHash);
      if (!freshSession(entry, at)) {
        sessions.delete(tokenHash);
        entry = (await loadSession(tokenHash, at)) ?? undefined;
        if (!entry) return null;
      }
      if (entry.expiresAt <= at) {
        sessions.delete(tokenHash);
        await repo.deleteSession(db, tokenHash);
        return null;
      }
      // A fresh cached account answers without another await (the common signed-in request).
      const user = freshUser(entry.userId, at) ?? (await loadUser(entry.userId, at));
      if (!user) {
        sessions.delete(tokenHash);
        return null;
      }
      let renewed = false;
      if (renewalDue(entry, at)) {
        entry.renewedAt = at;
        entry.expiresAt = at + lifetimeMs;
        await repo.renewSession(db, tokenHash, new Date(at), new Date(entry.expiresAt));
        renewed = true;
      }
      if (known === undefined) remember(hashes, token, tokenHash);
      return { user, tokenHash, renewed };
    },

    async end(tokenHash) {
      sessions.delete(tokenHash);
      await repo.deleteSession(db, tokenHash);
    },

    forgetUser: (userId) => void users.delete(userId),

    clearCache() {
      sessions.clear();
      users.clear();
      hashes.clear();
    },

    applyChange(message) {
      if (message.startsWith('user:')) users.delete(Number(message.slice(5)));
      else if (message.startsWith('session:')) sessions.delete(message.slice(8));
    },

    setCacheTrusted(value) {
      trusted = value;
      if (!value) {
        sessions.clear();
        users.clear();
      }
    },
  };
}
