import { sql, type Kysely } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('level', 'smallint', (c) => c.notNull().defaultTo(0).check(sql`level between 0 and 3`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('renewed_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('user_settings')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('menu_color', 'text', (c) => c.notNull())
    .addColumn('background_color', 'text', (c) => c.notNull())
    .addColumn('foreground_color', 'text', (c) => c.notNull())
    .addColumn('accent_color', 'text', (c) => c.notNull())
    .addColumn('link_color', 'text', (c) => c.notNull())
    .addColumn('error_color', 'text', (c) => c.notNull())
    .addColumn('menu_color2', 'text', (c) => c.notNull())
    .addColumn('click_to_toggle', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('splash_dismissed', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_settings').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}
