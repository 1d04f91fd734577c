import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */
/** The media store a move switched the site to (media.state.ts); every server hears a change at once. */
const storeState: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('media_store')
      .addColumn('id', 'boolean', (c) => c.primaryKey().defaultTo(true).check(sql`id`))
      .addColumn('active', 'text', (c) => c.notNull().check(sql`active in ('local', 's3')`))
      .addColumn('previous', 'text', (c) => c.check(sql`previous in ('local', 's3')`))
      .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addCheckConstraint('media_store_previous', sql`previous is distinct from active`)
      .execute();
    await sql`
      create function media_store_notify() returns trigger language plpgsql as $$
      begin
        perform pg_notify('site_media_store', '');
        return null;
      end $$`.execute(db);
    await sql`create trigger media_store_notify after insert or update or delete on media_store
      for each statement execute function media_store_notify()`.execute(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('media_store').execute();
    await sql`drop function media_store_notify()`.execute(db);
  },
};
/* eslint-enable @typescript-eslint/no-explicit-any */

export const mediaMigrations = { '20261202_media_store_state': storeState };
