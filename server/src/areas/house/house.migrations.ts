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

/** Issue 22: quantity and note, repeating To Do tasks, and the list a task was on (kept once complete, for Undo). */
const addDetails: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('house_tasks')
      .addColumn('type', 'text', (c) => c.check(sql`type in ('To Do', 'To Get')`))
      .addColumn('quantity', 'text')
      .addColumn('note', 'text')
      .addColumn('repeat_days', 'integer', (c) => c.check(sql`repeat_days between 1 and 365`))
      .addColumn('due_at', 'timestamptz')
      .addColumn('next_id', 'integer', (c) => c.references('house_tasks.id').onDelete('set null'))
      .execute();
    // A task completed before this migration was on an unknown list: To Do is the guess Undo uses.
    await sql`update house_tasks set type = case when status = 'To Get' then 'To Get' else 'To Do' end`.execute(db);
    await db.schema.alterTable('house_tasks').alterColumn('type', (c) => c.setNotNull()).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema
      .alterTable('house_tasks')
      .dropColumn('type')
      .dropColumn('quantity')
      .dropColumn('note')
      .dropColumn('repeat_days')
      .dropColumn('due_at')
      .dropColumn('next_id')
      .execute();
  },
};

export const houseMigrations = { '20261123_house_tasks': createTasks, '20261124_house_details': addDetails };
