import { sql, type Kysely, type Migration } from 'kysely';
import { SEARCH_SOURCES_V1, SEARCH_SOURCES_V2, SEARCH_SOURCES_V3, SEARCH_SOURCES_V4, SEARCH_SOURCES_V5, foldFunction, searchDocumentMigration, searchTable } from './pictures.search-sources.ts';

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

/** The tables whose changes move pictures between pages, and the triggers that say so. */
const PAGING_TABLES = ['pictures', 'picture_days'] as const;
const PAGING_EVENTS = [
  ['insert', 'referencing new table as new_rows'],
  ['delete', 'referencing old table as old_rows'],
  ['update', 'referencing old table as old_rows new table as new_rows'],
  ['truncate', ''],
] as const;

/**
 * The gallery's layout cache (pictures.layout.ts). Approved pictures are counted per capture day
 * instead of per month, so a page starts its index scan at the right day (a few rows to skip, not a
 * month's worth). picture_paging holds a token that triggers replace with a random one, in the
 * writing transaction, whenever rows of pictures or picture_days change in a way that can move a
 * picture between pages (not a caption or a thumbnail); each server process keeps the layout in
 * memory with the token it was read under, and a page read returns the current token in the same
 * statement as its rows, so a change made through any process, or by hand in SQL, is seen on the
 * next call.
 *
 * The token is every row of picture_paging together: a change deletes the rows it sees and adds a
 * new one, so two writers at once leave two rows (both new) rather than one overwriting the other
 * unseen, and a restore that loads the table's rows from an archive never collides with a row a
 * trigger has just added. The triggers look at the rows a statement really changed, so loading an
 * empty table (a restore) leaves the token alone.
 */
const layoutCache: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('picture_days')
      .addColumn('year', 'smallint', (c) => c.notNull())
      .addColumn('month', 'smallint', (c) => c.notNull())
      .addColumn('day', 'smallint', (c) => c.notNull())
      .addColumn('approved', 'integer', (c) => c.notNull().check(sql`approved >= 0`))
      .addPrimaryKeyConstraint('picture_days_pkey', ['year', 'month', 'day'])
      .execute();
    await sql`
      insert into picture_days (year, month, day, approved)
      select year, month, day, count(*) from pictures where status = 'approved' group by year, month, day`.execute(db);
    await db.schema.dropTable('picture_months').execute();

    await db.schema.createTable('picture_paging').addColumn('token', 'uuid', (c) => c.primaryKey()).execute();
    // A fixed first token: a freshly migrated database must look the same every time (backup's
    // "is this database empty" check compares it with a throw-away one).
    await sql`insert into picture_paging (token) values ('00000000-0000-0000-0000-000000000000')`.execute(db);
    await sql`
      create function picture_paging_changed() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          if not exists (select from new_rows) then return null; end if;
        elsif tg_op = 'DELETE' then
          if not exists (select from old_rows) then return null; end if;
        elsif tg_op = 'UPDATE' and tg_table_name = 'pictures' then
          if not exists (
            select from old_rows o join new_rows n using (id)
            where (o.status, o.year, o.month, o.day, o.uploaded_by) is distinct from (n.status, n.year, n.month, n.day, n.uploaded_by)
          ) then return null; end if;
        elsif tg_op = 'UPDATE' then
          if not exists (select from new_rows) then return null; end if;
        end if;
        delete from picture_paging;
        insert into picture_paging (token) values (gen_random_uuid());
        return null;
      end
      $$`.execute(db);
    for (const table of PAGING_TABLES) {
      for (const [event, referencing] of PAGING_EVENTS) {
        await sql`
          create trigger ${sql.id(`${table}_paging_${event}`)} after ${sql.raw(event)} on ${sql.table(table)} ${sql.raw(referencing)}
          for each statement execute function picture_paging_changed()`.execute(db);
      }
    }
  },
  async down(db: Kysely<any>) {
    for (const table of PAGING_TABLES) {
      for (const [event] of PAGING_EVENTS) await sql`drop trigger ${sql.id(`${table}_paging_${event}`)} on ${sql.table(table)}`.execute(db);
    }
    await sql`drop function picture_paging_changed()`.execute(db);
    await db.schema.dropTable('picture_paging').execute();
    await db.schema
      .createTable('picture_months')
      .addColumn('year', 'smallint', (c) => c.notNull())
      .addColumn('month', 'smallint', (c) => c.notNull())
      .addColumn('approved', 'integer', (c) => c.notNull().check(sql`approved >= 0`))
      .addPrimaryKeyConstraint('picture_months_pkey', ['year', 'month'])
      .execute();
    await sql`
      insert into picture_months (year, month, approved)
      select year, month, sum(approved) from picture_days group by year, month`.execute(db);
    await db.schema.dropTable('picture_days').execute();
  },
};

/**
 * Duplicates and previews: each original's SHA-256 (indexed, so an upload of bytes already stored
 * is found at once; rows from before are hashed by the worker at start), and the program a preview
 * needs when the server lacked it. Not unique: galleries from before may hold the same bytes twice.
 */
const hashesAndPreviews: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('pictures')
      .addColumn('sha256', 'text', (c) => c.check(sql`sha256 ~ '^[0-9a-f]{64}$'`))
      .addColumn('preview_needs', 'text')
      .execute();
    await db.schema.createIndex('pictures_sha256').on('pictures').column('sha256').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('pictures_sha256').execute();
    await db.schema.alterTable('pictures').dropColumn('sha256').dropColumn('preview_needs').execute();
  },
};

/**
 * The page cache (pictures.page-cache.ts): any statement that changes pictures (a thumbnail made
 * too, which the layout token above ignores) or renames or deletes an account (a page names its
 * uploaders) NOTIFYs site_pictures at commit, so every server process forgets its pages.
 */
const galleryNotify: Migration = {
  async up(db: Kysely<any>) {
    await sql`
      create function pictures_notify_gallery() returns trigger language plpgsql as $$
      begin
        perform pg_notify('site_pictures', tg_table_name);
        return null;
      end
      $$`.execute(db);
    await sql`create trigger pictures_gallery_notify after insert or update or delete or truncate on pictures
      for each statement execute function pictures_notify_gallery()`.execute(db);
    await sql`create trigger users_gallery_notify after update of name or delete on users
      for each statement execute function pictures_notify_gallery()`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop trigger users_gallery_notify on users`.execute(db);
    await sql`drop trigger pictures_gallery_notify on pictures`.execute(db);
    await sql`drop function pictures_notify_gallery()`.execute(db);
  },
};

/** A picture over its codec's pixel budget: kept, never decoded, shown as "too large to preview". */
const tooLarge: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('pictures').addColumn('preview_too_large', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('pictures').dropColumn('preview_too_large').execute();
  },
};

/**
 * Hearts and comments (pictures.social.ts). Both go with their picture and with their member's
 * account (ON DELETE CASCADE). Every change NOTIFYs the live feed's `pictureSocial` (a row trigger:
 * a heart given twice, which inserts nothing, says nothing); a picture deleted takes its rows, whose
 * deletion says so too.
 */
const social: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('picture_hearts')
      .addColumn('picture_id', 'integer', (c) => c.notNull().references('pictures.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('picture_hearts_pkey', ['picture_id', 'user_id'])
      .execute();
    await db.schema.createIndex('picture_hearts_user').on('picture_hearts').column('user_id').execute();
    await db.schema
      .createTable('picture_comments')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('picture_id', 'integer', (c) => c.notNull().references('pictures.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('text', 'text', (c) => c.notNull().check(sql`char_length(text) between 1 and 2000`))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('edited_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('picture_comments_picture').on('picture_comments').columns(['picture_id', 'id']).execute();
    await db.schema.createIndex('picture_comments_user').on('picture_comments').column('user_id').execute();
    for (const table of ['picture_hearts', 'picture_comments']) {
      await sql`create trigger ${sql.id(`${table}_live`)} after insert or update or delete on ${sql.id(table)}
        for each row execute function site_notify_change('pictureSocial')`.execute(db);
      await sql`create trigger ${sql.id(`${table}_live_truncate`)} after truncate on ${sql.id(table)}
        for each statement execute function site_notify_change('pictureSocial')`.execute(db);
    }
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('picture_comments').execute();
    await db.schema.dropTable('picture_hearts').execute();
  },
};

/**
 * The picture queue's turns (claimJob): for each one who queues, a member (`user:<id>`) or the guests
 * of one upload link (`link:<id>`), when the queue last served them and how much decoder time their
 * jobs took in the current window.
 */
const queueTurns: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('picture_queue_turns')
      .addColumn('owner', 'text', (c) => c.primaryKey())
      .addColumn('served_at', 'timestamptz', (c) => c.notNull())
      .addColumn('work_ms', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('window_started', 'timestamptz', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('picture_queue_turns').execute();
  },
};

/**
 * Places (pictures.places.ts): a row per picture whose file was read for a position, gone with the
 * picture. The position's columns are all set or all null; the town and country only with a position.
 */
const places: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('picture_places')
      .addColumn('picture_id', 'integer', (c) => c.primaryKey().references('pictures.id').onDelete('cascade'))
      .addColumn('lat', 'double precision', (c) => c.check(sql`lat between -90 and 90`))
      .addColumn('lon', 'double precision', (c) => c.check(sql`lon between -180 and 180`))
      .addColumn('town', 'text')
      .addColumn('country', 'text')
      .addCheckConstraint('picture_places_position', sql`(lat is null) = (lon is null) and (lat is not null or (town is null and country is null))`)
      .execute();
    // Search's suggestions complete a town's or a country's name from its first letters.
    await sql`create index picture_places_town on picture_places (lower(town) text_pattern_ops)`.execute(db);
    await sql`create index picture_places_country on picture_places (lower(country) text_pattern_ops)`.execute(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('picture_places').execute();
  },
};

/** The places' folded names (what the picture_places_keys trigger keeps) for the rows already there. */
const fillPlaceKeys = (db: Kysely<any>) =>
  sql`update picture_places set town_key = lower(site_fold(town)), country_key = lower(site_fold(country))`.execute(db).then(() => {});

/**
 * Accents no longer count in search (20261203_pictures_search_fold): site_fold, every document made
 * again from folded text (SEARCH_SOURCES_V3), and the places' name indexes of the suggestions over
 * the folded lower-case name ("mal" completes to "Málaga").
 */
const searchFold: Migration = {
  async up(db: Kysely<any>) {
    await foldFunction.up(db);
    // The folded names are kept in columns (a trigger), not only in an index of the expression: a
    // prefix matching a town of 10,000 pictures rechecks 10,000 rows, and folding each again took 80 ms.
    await sql`alter table picture_places add column town_key text, add column country_key text`.execute(db);
    await sql`
      create function picture_places_keys() returns trigger language plpgsql as $$
      begin
        new.town_key := lower(site_fold(new.town));
        new.country_key := lower(site_fold(new.country));
        return new;
      end $$`.execute(db);
    await sql`create trigger picture_places_keys before insert or update of town, country on picture_places
      for each row execute function picture_places_keys()`.execute(db);
    await fillPlaceKeys(db);
    await sql`drop index picture_places_town`.execute(db);
    await sql`drop index picture_places_country`.execute(db);
    await sql`create index picture_places_town on picture_places (town_key text_pattern_ops)`.execute(db);
    await sql`create index picture_places_country on picture_places (country_key text_pattern_ops)`.execute(db);
    await searchDocumentMigration(SEARCH_SOURCES_V3, SEARCH_SOURCES_V2).up(db);
  },
  async down(db: Kysely<any>) {
    await searchDocumentMigration(SEARCH_SOURCES_V2, SEARCH_SOURCES_V3).up(db);
    await sql`drop index picture_places_town`.execute(db);
    await sql`drop index picture_places_country`.execute(db);
    await sql`create index picture_places_town on picture_places (lower(town) text_pattern_ops)`.execute(db);
    await sql`create index picture_places_country on picture_places (lower(country) text_pattern_ops)`.execute(db);
    await sql`drop trigger picture_places_keys on picture_places`.execute(db);
    await sql`drop function picture_places_keys()`.execute(db);
    await sql`alter table picture_places drop column town_key, drop column country_key`.execute(db);
    await foldFunction.down?.(db);
  },
};

/**
 * Videos' places are read now (ffprobe's ISO 6709 location tag): the videos read before, each with
 * an empty row, are read again by the places backlog pass at the next start (20261203_pictures_video_places).
 */
const videoPlaces: Migration = {
  async up(db: Kysely<any>) {
    const videos = ['mp4', 'mov', 'webm', 'm4v', '3gp', '3g2', 'avi', 'mkv', 'mts', 'mpg', 'wmv', 'flv', 'ogv'];
    await sql`delete from picture_places pl using pictures p
      where p.id = pl.picture_id and pl.lat is null and p.file_type = any(${sql.val(videos)}::text[])`.execute(db);
  },
  async down() {
    // Nothing to undo: the rows are read again by the backlog pass.
  },
};

export const picturesMigrations = {
  '20261123_pictures_tables': pictures,
  '20261124_pictures_layout_cache': layoutCache,
  '20261125_pictures_hashes': hashesAndPreviews,
  '20261126_pictures_gallery_notify': galleryNotify,
  '20261127_pictures_too_large': tooLarge,
  // After 20261127_live_change_triggers, whose function its triggers call.
  '20261129_pictures_social': social,
  '20261127_pictures_queue_turns': queueTurns,
  '20261130_pictures_places': places,
  // After places and comments, whose tables the search document reads.
  '20261130_pictures_search': searchTable,
  // After 20261130_people_tables: tags and people's names join the search document.
  '20261201_pictures_search_people_tags': searchDocumentMigration(SEARCH_SOURCES_V2, SEARCH_SOURCES_V1),
  '20261203_pictures_search_fold': searchFold,
  '20261203_pictures_video_places': videoPlaces,
  // Members' own tags leave the guests' words (issue 52): the detector's labels stay theirs.
  '20261205_pictures_search_member_tags': {
    up: (db) => searchDocumentMigration(SEARCH_SOURCES_V4, SEARCH_SOURCES_V3).up(db),
    down: (db) => searchDocumentMigration(SEARCH_SOURCES_V3, SEARCH_SOURCES_V4).up(db),
  } satisfies Migration,
  // Search forgives typos in names (issue 48, pictures.search-typos.ts): pg_trgm's word_similarity.
  // PGlite loads the extension's code when created with it (db/database.ts, PGLITE_EXTENSIONS).
  '20261207_pictures_search_trigram': {
    up: (db) => sql`create extension if not exists pg_trgm`.execute(db).then(() => {}),
    down: (db) => sql`drop extension if exists pg_trgm`.execute(db).then(() => {}),
  } satisfies Migration,
  // The faces' search trigger for each statement (SEARCH_SOURCES_V5): a re-grouping that moves
  // thousands of faces makes each of their pictures' documents once, not once per face.
  '20261210_pictures_search_faces_statements': {
    up: (db) => searchDocumentMigration(SEARCH_SOURCES_V5, SEARCH_SOURCES_V4).up(db),
    down: (db) => searchDocumentMigration(SEARCH_SOURCES_V4, SEARCH_SOURCES_V5).up(db),
  } satisfies Migration,
};

/**
 * What some migrations did to the rows they found, done again to the rows of an archive made before
 * them (ServerArea.afterRestore): a restore migrates an empty database, then loads the archive's rows
 * as they were. The search migrations made every document again; the video places one cleared the
 * empty places of videos so they are read again.
 */
const searchAgain = (db: Kysely<any>) => sql`select picture_search_refresh(array(select id from pictures))`.execute(db).then(() => {});
export const redoAfterRestore: Readonly<Record<string, (db: Kysely<any>) => Promise<void>>> = {
  '20261130_pictures_search': searchAgain,
  '20261201_pictures_search_people_tags': searchAgain,
  '20261203_pictures_search_fold': async (db) => {
    await fillPlaceKeys(db);
    await searchAgain(db);
  },
  '20261203_pictures_video_places': (db) => videoPlaces.up(db),
};
