import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const createPasses: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('climbing_passes')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('guest', 'text', (c) => c.notNull())
      .addColumn('added_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('climbing_passes_created_at').on('climbing_passes').column('created_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('climbing_passes').execute();
  },
};

export const climbingMigrations = { '20261123_climbing_passes': createPasses };
