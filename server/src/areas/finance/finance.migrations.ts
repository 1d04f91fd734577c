import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const charityEntries: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('charity_entries')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('charitable', 'boolean', (c) => c.notNull())
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('item', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull().check(sql`date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`))
      .addColumn('year', 'integer', (c) => c.notNull())
      .addColumn('value_cents', 'bigint', (c) => c.check(sql`value_cents >= 0`))
      .addColumn('documentation_key', 'text')
      .addColumn('documentation_type', 'text')
      .addColumn('documentation_size', 'integer')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('charity_entries_year_date').on('charity_entries').columns(['year', 'date']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('charity_entries').execute();
  },
};

export const financeMigrations = { '20261123_finance_charity_entries': charityEntries };
