import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const pictures: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('pictures')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('stem', 'text', (c) => c.notNull().unique().check(sql`stem ~ '^[0-9a-f]{32}$'`))
      .addColumn('file_type', 'text', (c) => c.notNull())
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('size_bytes', 'bigint', (c) => c.notNull())
      .addColumn('caption', 'text', (c) => c.notNull())
      .addColumn('year', 'smallint', (c) => c.notNull().check(sql`year = 0 or year between 1800 and 2200`))
      .addColumn('month', 'smallint', (c) => c.notNull().check(sql`month between 0 and 12`))
      .addColumn('day', 'smallint', (c) => c.notNull().check(sql`day between 0 and 31`))
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'approved')`))
      .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('thumb_status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`thumb_status in ('pending', 'ready', 'none')`))
      .addColumn('thumb_width', 'integer')
      .addColumn('thumb_height', 'integer')
      .addColumn('has_display', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('has_poster', 'boolean', (c) => c.notNull().defaultTo(false))
      .execute();
    // Newest first: (year, month, day, id) descending, read backwards from this index.
    await db.schema.createIndex('pictures_capture_order').on('pictures').columns(['year', 'month', 'day', 'id']).execute();
    await sql`create index pictures_pending on pictures (year, month) where status = 'pending'`.execute(db);

    await db.schema
      .createTable('picture_months')
      .addColumn('year', 'smallint', (c) => c.notNull())
      .addColumn('month', 'smallint', (c) => c.notNull())
      .addColumn('approved', 'integer', (c) => c.notNull().check(sql`approved >= 0`))
      .addPrimaryKeyConstraint('picture_months_pkey', ['year', 'month'])
      .execute();

    await db.schema
      .createTable('picture_jobs')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('picture_id', 'integer', (c) => c.notNull().references('pictures.id').onDelete('cascade'))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('run_after', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('locked_until', 'timestamptz')
      .addColumn('last_error', 'text')
      .execute();
    await db.schema.createIndex('picture_jobs_run_after').on('picture_jobs').column('run_after').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('picture_jobs').execute();
    await db.schema.dropTable('picture_months').execute();
    await db.schema.dropTable('pictures').execute();
  },
};

export const picturesMigrations = { '20261123_pictures_tables': pictures };
