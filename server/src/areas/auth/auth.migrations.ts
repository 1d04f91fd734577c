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

/** What the account page's device list shows of a session: the browser and address it signed in from. */
const sessionDevices: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('ip', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
    await db.schema.alterTable('sessions').dropColumn('ip').execute();
  },
};

/** One-time password reset links (reset-links.ts). */
const resetLinks: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('auth_reset_links')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('used_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('auth_reset_links_user_id').on('auth_reset_links').column('user_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('auth_reset_links').execute();
  },
};

/** Personal API tokens (identity/api-tokens.ts). */
const apiTokens: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('last_used_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('api_tokens_user_id').on('api_tokens').column('user_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('api_tokens').execute();
  },
};

/** Scopes of personal API tokens (contracts/src/scopes.ts): null, as every token had before, is every right. */
const tokenScopes: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('api_tokens').addColumn('scopes', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('api_tokens').dropColumn('scopes').execute();
  },
};

/** Passkeys (passkeys.ts): each member's WebAuthn credentials, and the challenges of ceremonies under way. */
const passkeys: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('auth_passkeys')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('credential_id', 'text', (c) => c.notNull().unique())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('transports', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('last_used_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('auth_passkeys_user_id').on('auth_passkeys').column('user_id').execute();
    await db.schema
      .createTable('auth_passkey_challenges')
      .addColumn('challenge', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('auth_passkey_challenges').execute();
    await db.schema.dropTable('auth_passkeys').execute();
  },
};

/**
 * When a session last confirmed its member (password or passkey again): adding a passkey or a token
 * needs a sign-in or a confirmation within REAUTH_MINUTES. Null: only the sign-in (created_at).
 */
const sessionConfirmed: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('sessions').addColumn('confirmed_at', 'timestamptz').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('sessions').dropColumn('confirmed_at').execute();
  },
};

/** A reset link that a newer one for the same member replaced says so, instead of "not valid". */
const resetReplaced: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('auth_reset_links').addColumn('replaced_at', 'timestamptz').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('auth_reset_links').dropColumn('replaced_at').execute();
  },
};

export const authMigrations = {
  '20261123_auth_limits': limits,
  '20261123_auth_name_keys': nameKeys,
  '20261123_auth_session_events': sessionEvents,
  '20261124_auth_setup_code': setupCode,
  '20261126_auth_session_devices': sessionDevices,
  '20261126_auth_reset_links': resetLinks,
  '20261126_auth_api_tokens': apiTokens,
  '20261126_auth_passkeys': passkeys,
  '20261127_auth_session_confirmed': sessionConfirmed,
  '20261127_auth_reset_replaced': resetReplaced,
  '20261129_auth_token_scopes': tokenScopes,
};
