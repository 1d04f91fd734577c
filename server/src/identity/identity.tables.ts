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
  renewed_at: Date;
}

export interface IdentityTables {
  users: UsersTable;
  sessions: SessionsTable;
}

export type UserRecord = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRecord = Selectable<SessionsTable>;
