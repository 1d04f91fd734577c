import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const createKeys: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('windows_keys')
      .addColumn('key', 'text', (c) => c.primaryKey().check(sql`key ~ '^[A-Z0-9]{5}(-[A-Z0-9]{5}){4}$'`))
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('Active', 'Inactive', 'Unused')`))
      .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('changed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('windows_key_events')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('key', 'text', (c) => c.notNull().references('windows_keys.key').onDelete('cascade'))
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('location', 'text', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('windows_key_events_key').on('windows_key_events').column('key').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('windows_key_events').execute();
    await db.schema.dropTable('windows_keys').execute();
  },
};

export const windowsKeysMigrations = { '20261123_windows_keys_keys': createKeys };
