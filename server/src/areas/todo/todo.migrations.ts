import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const createTasks: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('todo_tasks')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('task', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('Active', 'Inactive', 'Completed', 'Abandoned')`))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('todo_tasks_user_id').on('todo_tasks').column('user_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('todo_tasks').execute();
  },
};

export const todoMigrations = { '20261123_todo_tasks': createTasks };
