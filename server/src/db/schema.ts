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

export interface UserSettingsTable {
  user_id: number;
  menu_color: string;
  background_color: string;
  foreground_color: string;
  accent_color: string;
  link_color: string;
  error_color: string;
  menu_color2: string;
  click_to_toggle: boolean;
  splash_dismissed: boolean;
}

export interface Tables {
  users: UsersTable;
  sessions: SessionsTable;
  user_settings: UserSettingsTable;
}

export type UserRecord = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRecord = Selectable<SessionsTable>;
export type UserSettingsRecord = Selectable<UserSettingsTable>;

/** Every table, in an order that TRUNCATE ... CASCADE accepts (tests empty them between cases). */
export const tableNames = ['user_settings', 'sessions', 'users'] as const satisfies readonly (keyof Tables)[];
