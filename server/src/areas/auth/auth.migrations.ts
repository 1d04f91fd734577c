import { sql, type Kysely, type Migration } from 'kysely';
import { lookalikeKey } from '@site/contracts';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const limits: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('auth_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .addColumn('window_ends', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('auth_limits_window_ends').on('auth_limits').column('window_ends').execute();
    await db.schema
      .createTable('auth_devices')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('auth_devices_user_id').on('auth_devices').column('user_id').execute();
  },
};

/**
 * Names used to be unique ignoring case only; now also ignoring invisible and bidi-control
 * characters and Unicode normalisation. Existing keys are recomputed; an existing name that would
 * collide with an earlier one keeps its old key (both accounts keep working, no new look-alike can be made).
 */
const nameKeys: Migration = {
  async up(db: Kysely<any>) {
    const rows = (await db.selectFrom('users').select(['id', 'name', 'name_key']).orderBy('id').execute()) as {
      id: number;
      name: string;
      name_key: string;
    }[];
    const taken = new Set(rows.map((r) => r.name_key));
    for (const row of rows) {
      const key = lookalikeKey(row.name);
      if (key === row.name_key || taken.has(key)) continue;
      taken.add(key);
      await db.updateTable('users').set({ name_key: key }).where('id', '=', row.id).execute();
    }
  },
};

/**
 * Every server process caches sessions and accounts; these triggers NOTIFY the change at commit so
 * each process drops what it cached (identity/session-events.ts): a level change, rename or deletion
 * of an account, and the end of a session (logout, expiry, the account's deletion).
 */
const sessionEvents: Migration = {
  async up(db: Kysely<any>) {
    await sql`
      create function site_notify_session_change() returns trigger language plpgsql as $$
      begin
        if tg_table_name = 'users' then
          perform pg_notify('site_sessions', 'user:' || old.id);
        else
          perform pg_notify('site_sessions', 'session:' || old.token_hash);
        end if;
        return null;
      end
      $$`.execute(db);
    await sql`
      create trigger users_session_change after update of level, name or delete on users
      for each row execute function site_notify_session_change()`.execute(db);
    await sql`
      create trigger sessions_session_change after delete on sessions
      for each row execute function site_notify_session_change()`.execute(db);
  },
};

/** The one-time setup code of a site without accounts (areas/auth/setup-code.ts): one row at most. */
const setupCode: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('auth_setup_code')
      .addColumn('id', 'smallint', (c) => c.primaryKey().defaultTo(1).check(sql`id = 1`))
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('auth_setup_code').execute();
  },
};

export const authMigrations = {
  '20261123_auth_limits': limits,
  '20261123_auth_name_keys': nameKeys,
  '20261123_auth_session_events': sessionEvents,
  '20261124_auth_setup_code': setupCode,
};
