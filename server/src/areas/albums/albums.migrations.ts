import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

/** Albums, their pictures, guest links and guest uploads (after the pictures tables: 20261123). */
const albums: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('albums')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('private', 'boolean', (c) => c.notNull())
      .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('albums_owner').on('albums').column('owner_id').execute();

    await db.schema
      .createTable('album_pictures')
      .addColumn('album_id', 'integer', (c) => c.notNull().references('albums.id').onDelete('cascade'))
      .addColumn('picture_id', 'integer', (c) => c.notNull().references('pictures.id').onDelete('cascade'))
      .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('album_pictures_pkey', ['album_id', 'picture_id'])
      .execute();
    await db.schema.createIndex('album_pictures_picture').on('album_pictures').column('picture_id').execute();

    await db.schema
      .createTable('album_shares')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique().check(sql`token_hash ~ '^[0-9a-f]{64}$'`))
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('view', 'upload')`))
      .addColumn('album_id', 'integer', (c) => c.references('albums.id').onDelete('cascade'))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('expires_at', 'timestamptz')
      .addColumn('password_hash', 'text')
      .addColumn('revoked_at', 'timestamptz')
      .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('upload_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
      .addCheckConstraint('album_shares_view_has_album', sql`kind = 'upload' or album_id is not null`)
      .execute();
    await db.schema.createIndex('album_shares_album').on('album_shares').column('album_id').execute();

    await db.schema
      .createTable('picture_guests')
      .addColumn('picture_id', 'integer', (c) => c.primaryKey().references('pictures.id').onDelete('cascade'))
      .addColumn('share_id', 'integer', (c) => c.references('album_shares.id').onDelete('set null'))
      .addColumn('guest_name', 'text', (c) => c.notNull())
      .execute();

    // The live feed (areas/live): a family album's change is everyone's news, a private one its owner's.
    await sql`
      create function albums_notify_change() returns trigger language plpgsql as $$
      declare
        album record;
      begin
        if tg_table_name = 'albums' then
          select coalesce(new.private, old.private) as private, coalesce(new.owner_id, old.owner_id) as owner_id into album;
        else
          select a.private, a.owner_id into album from albums a where a.id = coalesce(new.album_id, old.album_id);
          if not found then return null; end if;
        end if;
        if not album.private then
          perform pg_notify('site_changes', 'albums');
        elsif album.owner_id is not null then
          perform pg_notify('site_changes', 'albums:' || album.owner_id);
        end if;
        return null;
      end $$`.execute(db);
    for (const table of ['albums', 'album_pictures']) {
      await sql`create trigger ${sql.id(`${table}_live`)} after insert or update or delete on ${sql.id(table)}
        for each row execute function albums_notify_change()`.execute(db);
    }
  },
  async down(db: Kysely<any>) {
    await sql`drop trigger album_pictures_live on album_pictures`.execute(db);
    await sql`drop trigger albums_live on albums`.execute(db);
    await sql`drop function albums_notify_change()`.execute(db);
    await db.schema.dropTable('picture_guests').execute();
    await db.schema.dropTable('album_shares').execute();
    await db.schema.dropTable('album_pictures').execute();
    await db.schema.dropTable('albums').execute();
  },
};

/** A view link hands out originals without their GPS position unless its sharer ticked "Include location". */
const shareLocation: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('album_shares').addColumn('include_location', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('album_shares').dropColumn('include_location').execute();
  },
};

export const albumsMigrations = {
  '20261128_albums_tables': albums,
  // Dated after the tables it changes (20261128): a fresh database runs migrations in the order of their names.
  '20261129_albums_share_location': shareLocation,
};
