import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const createRuns: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('backup_runs')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('scheduled', 'command')`))
      .addColumn('slot', 'timestamptz', (c) => c.unique())
      .addColumn('started_at', 'timestamptz', (c) => c.notNull())
      .addColumn('heartbeat_at', 'timestamptz', (c) => c.notNull())
      .addColumn('finished_at', 'timestamptz')
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('size_bytes', 'bigint')
      .addColumn('verified', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('error', 'text')
      .addColumn('removed_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('backup_runs_started_at').on('backup_runs').column('started_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('backup_runs').execute();
  },
};

/**
 * Which process runs a backup (its id and machine): a run whose process on this machine is gone was
 * killed, whatever its heartbeat says, so the next backup removes its partial file at once.
 */
const runProcess: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('backup_runs').addColumn('pid', 'integer').execute();
    await db.schema.alterTable('backup_runs').addColumn('host', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('backup_runs').dropColumn('pid').execute();
    await db.schema.alterTable('backup_runs').dropColumn('host').execute();
  },
};

export const backupsMigrations = { '20261124_backups_runs': createRuns, '20261127_backups_run_process': runProcess };
