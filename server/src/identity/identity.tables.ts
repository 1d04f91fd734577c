import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  name: string;
  /** lower(name): the unique key, so names are unique ignoring case. */
  name_key: string;
  password_hash: string;
  level: number;
  created_at: ColumnType<Date, never, never>;
}

export interface SessionsTable {
  /** hex SHA-256 of the cookie token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: ColumnType<Date, never, never>;
  expires_at: Date;
  /** When the session was last renewed: its last use, to the hour (sliding expiry writes it at most hourly). */
  renewed_at: Date;
  /** The browser's User-Agent and the client address at sign-in, for the account page's device list. */
  user_agent: string | null;
  ip: string | null;
  /** When the member last confirmed it is them in this session (password or passkey again), or null. */
  confirmed_at: ColumnType<Date | null, never, Date>;
}

/**
 * Personal API tokens (`Authorization: Bearer TOKEN`): each acts with its member's level at the
 * time of the request. Only the SHA-256 of the token is kept; the token is shown once.
 */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  label: string;
  token_hash: string;
  created_at: ColumnType<Date, never, never>;
  /** Written at most once a minute per token. */
  last_used_at: Date | null;
  /** The token's scopes, space-separated (contracts/src/scopes.ts); null: every right of the member. */
  scopes: string | null;
}

export interface IdentityTables {
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
}

export type UserRecord = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRecord = Selectable<SessionsTable>;
