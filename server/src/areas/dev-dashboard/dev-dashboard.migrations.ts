import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const devRuns: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('dev_runs')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('who', 'text', (c) => c.notNull())
      .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('finished_at', 'timestamptz')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('exit_code', 'integer')
      .addColumn('duration_ms', 'integer')
      .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
      .addColumn('output', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    // One run at a time, across every server process sharing the database.
    await sql`create unique index dev_runs_one_running on dev_runs ((true)) where status = 'running'`.execute(db);
    await db.schema.createIndex('dev_runs_started_at').on('dev_runs').column('started_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('dev_runs').execute();
  },
};

export const devDashboardMigrations = { '20261123_devDashboard_runs': devRuns };
