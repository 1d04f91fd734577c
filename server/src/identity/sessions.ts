import { randomBytes } from 'node:crypto';
import { hashToken } from './token-hash.ts';
import type { Level } from '@site/contracts';
import type { Database } from '../db/database.ts';
import * as repo from './sessions.repository.ts';
import { findUserById } from './users.repository.ts';
import { findApiTokenUser, type ApiTokenHolder } from './api-tokens.ts';
import type { SessionUser } from './session-user.ts';

export type SessionLookup = { user: SessionUser; tokenHash: string; renewed: boolean };

export type SessionStore = {
  readonly maxAgeSeconds: number;
  /** Starts a session for the user; returns the cookie token (only its hash is stored). */
  create(userId: number, client?: repo.SessionClient): Promise<{ token: string; tokenHash: string }>;
  lookup(token: string): Promise<SessionLookup | null>;
  /** The member a personal API token (`Authorization: Bearer`) acts for, read from the database each time. */
  apiTokenUser(token: string): Promise<ApiTokenHolder | null>;
  /**
   * The answer `lookup` would give, when the cache alone gives it (a known token, fresh entries, no
   * renewal due); undefined means ask `lookup`. Lets a signed-in request skip every await.
   */
  cached(token: string): SessionLookup | undefined;
  end(tokenHash: string): Promise<void>;
  /** Ends every session of the account but `keep` (null: all), here and (by the trigger) in every process. */
  endAllOf(userId: number, keep: string | null): Promise<number>;
  /** Forget the cached account so its next request reads the new level from the database. */
  forgetUser(userId: number): void;
  clearCache(): void;
  /** A change another process made (session-events.ts): 'user:<id>', or 'session:<hash>' (a session ended, or a personal API token was revoked: live streams watch either by its hash). */
  applyChange(message: string): void;
  /** While false every lookup reads the database (the change listener is down). */
  setCacheTrusted(trusted: boolean): void;
  /** When a cached session expires (ms since the epoch), from memory; undefined when not cached. */
  expiresAt(tokenHash: string): number | undefined;
  /** Whether the cache is trusted now (the change listener is up). */
  readonly trusted: boolean;
  /**
   * Calls `onChange` whenever what is known of this session or its account may have changed: it ended
   * (logout, here or in another process), the account's level or name changed or it was deleted, or
   * the change listener was lost or is back. A long-lived stream (the live feed) holds its viewer from
   * one lookup and looks again only then. Returns the function that stops watching.
   */
  watch(tokenHash: string, userId: number, onChange: () => void): () => void;
};

const RENEW_EVERY_MS = 60 * 60 * 1000;
/** How long a cached session or account is trusted before it is read again (other processes, the CLI). */
const SESSION_TRUST_MS = 60_000;
const USER_TRUST_MS = 5_000;
const MAX_ENTRIES = 50_000;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A session's answer: from the cache at once when it has one (nearly every signed-in request), else from `lookup`. */
export function findSession(store: SessionStore, token: string): SessionLookup | Promise<SessionLookup | null> {
  return store.cached(token) ?? store.lookup(token);
}

/** The hex SHA-256 a session token is stored as (identity/token-hash.ts). */
export { hashToken };

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
  // Who watches which session and which account (live streams), to be told when either changes.
  const bySession = new Map<string, Set<() => void>>();
  const byUser = new Map<number, Set<() => void>>();
  const tell = (watchers: Set<() => void> | undefined) => {
    if (watchers) for (const onChange of [...watchers]) onChange();
  };
  const tellAll = () => {
    for (const watchers of [...bySession.values()]) tell(watchers);
  };
  const add = <K>(map: Map<K, Set<() => void>>, key: K, onChange: () => void) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(onChange);
    return () => {
      set.delete(onChange);
      if (set.size === 0 && map.get(key) === set) map.delete(key);
    };
  };

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

    async create(userId, client) {
      const token = randomBytes(32).toString('base64url');
      const tokenHash = hashToken(token);
      const at = now();
      await repo.insertSession(db, { tokenHash, userId, expiresAt: new Date(at + lifetimeMs), now: new Date(at), client });
      users.delete(userId);
      return { token, tokenHash };
    },

    apiTokenUser: (token) => findApiTokenUser(db, token),

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
      // After the delete: a watcher that looks again must find the session gone.
      tell(bySession.get(tokenHash));
    },

    async endAllOf(userId, keep) {
      const ended = await repo.deleteSessionsOf(db, userId, keep);
      for (const tokenHash of ended) {
        sessions.delete(tokenHash);
        tell(bySession.get(tokenHash));
      }
      return ended.length;
    },

    forgetUser(userId) {
      users.delete(userId);
      tell(byUser.get(userId));
    },

    clearCache() {
      sessions.clear();
      users.clear();
      hashes.clear();
      tellAll();
    },

    applyChange(message) {
      if (message.startsWith('user:')) {
        const userId = Number(message.slice(5));
        users.delete(userId);
        tell(byUser.get(userId));
      } else if (message.startsWith('session:')) {
        const tokenHash = message.slice(8);
        sessions.delete(tokenHash);
        tell(bySession.get(tokenHash));
      }
    },

    setCacheTrusted(value) {
      trusted = value;
      if (!value) {
        sessions.clear();
        users.clear();
      }
      tellAll();
    },

    expiresAt: (tokenHash) => sessions.get(tokenHash)?.expiresAt,

    get trusted() {
      return trusted;
    },

    watch(tokenHash, userId, onChange) {
      const stops = [add(bySession, tokenHash, onChange), add(byUser, userId, onChange)];
      return () => stops.forEach((stop) => stop());
    },
  };
}
