import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */
const createClientChanges: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('client_changes')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('client_id', 'uuid', (c) => c.notNull())
      .addColumn('procedure', 'text', (c) => c.notNull())
      .addColumn('result', 'jsonb')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('client_changes_pkey', ['user_id', 'client_id'])
      .execute();
    await db.schema.createIndex('client_changes_user_created').on('client_changes').columns(['user_id', 'created_at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('client_changes').execute();
  },
};
/* eslint-enable @typescript-eslint/no-explicit-any */

export const clientChangesMigrations = { '20261124_sync_client_changes': createClientChanges };
