import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const createResults: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('tower_daily_results')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('date', 'text', (c) => c.notNull().check(sql`date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`))
      .addColumn('rounds', 'integer', (c) => c.notNull().check(sql`rounds >= 0`))
      .addColumn('floors', 'integer', (c) => c.notNull().check(sql`floors >= 1`))
      .addColumn('won', 'boolean', (c) => c.notNull())
      .addColumn('actions', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('tower_daily_results_pkey', ['user_id', 'date'])
      .execute();
    await db.schema.createIndex('tower_daily_results_date').on('tower_daily_results').column('date').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('tower_daily_results').execute();
  },
};

export const towerDailyMigrations = { '20261124_tower_daily_results': createResults };
