import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const createTasks: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('house_tasks')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('task', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('To Do', 'To Get', 'Complete')`))
      .addColumn('added_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('completed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('completed_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('house_tasks_status').on('house_tasks').column('status').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('house_tasks').execute();
  },
};

export const houseMigrations = { '20261123_house_tasks': createTasks };
