import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import { vectorBytes, vectorOfHex } from './people.vectors.ts';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const tables: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('people')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('name', 'text')
      .addColumn('hidden', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('centroid', sql`real[]`, (c) => c.notNull())
      .addColumn('face_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable('faces')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('picture_id', 'integer', (c) => c.notNull().references('pictures.id').onDelete('cascade'))
      .addColumn('ordinal', 'smallint', (c) => c.notNull())
      .addColumn('person_id', 'integer', (c) => c.references('people.id').onDelete('set null'))
      .addColumn('box', sql`real[]`, (c) => c.notNull().check(sql`cardinality(box) = 4`))
      .addColumn('embedding', sql`real[]`, (c) => c.notNull())
      .addColumn('score', 'real', (c) => c.notNull())
      .addColumn('removed', 'boolean', (c) => c.notNull().defaultTo(false))
      .addUniqueConstraint('faces_picture_ordinal', ['picture_id', 'ordinal'])
      .execute();
    await db.schema.createIndex('faces_person').on('faces').column('person_id').execute();

    await db.schema
      .createTable('picture_tags')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('picture_id', 'integer', (c) => c.notNull().references('pictures.id').onDelete('cascade'))
      .addColumn('tag', 'text', (c) => c.notNull().check(sql`length(tag) between 1 and 40`))
      .addColumn('confidence', 'real')
      .addColumn('added_by', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('model', 'member')`))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addCheckConstraint('picture_tags_member_has_author', sql`(source = 'model') = (added_by is null)`)
      .execute();
    await sql`create unique index picture_tags_model on picture_tags (picture_id, tag) where source = 'model'`.execute(db);
    await sql`create unique index picture_tags_member on picture_tags (picture_id, tag, added_by) where source = 'member'`.execute(db);
    await db.schema.createIndex('picture_tags_tag').on('picture_tags').column('tag').execute();

    await db.schema
      .createTable('picture_index')
      .addColumn('picture_id', 'integer', (c) => c.primaryKey().references('pictures.id').onDelete('cascade'))
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending').check(sql`state in ('pending', 'done', 'failed')`))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('run_after', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('locked_until', 'timestamptz')
      .addColumn('last_error', 'text')
      .addColumn('indexed_at', 'timestamptz')
      .execute();
    await sql`create index picture_index_due on picture_index (run_after) where state = 'pending'`.execute(db);

    await db.schema
      .createTable('people_settings')
      .addColumn('id', 'boolean', (c) => c.primaryKey().defaultTo(true).check(sql`id`))
      .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
      .execute();
    await db.insertInto('people_settings').values({ id: true, enabled: true }).execute();

    // Every approved picture is indexed once: the backlog now, each new one at its approval (or at its
    // insert, when the owner's upload is approved at once).
    await sql`insert into picture_index (picture_id) select id from pictures where status = 'approved'`.execute(db);
    await sql`
      create function picture_index_on_approval() returns trigger language plpgsql as $$
      begin
        if new.status = 'approved' and (tg_op = 'INSERT' or old.status is distinct from 'approved') then
          insert into picture_index (picture_id) values (new.id) on conflict do nothing;
        end if;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger picture_index_on_approval after insert or update of status on pictures
      for each row execute function picture_index_on_approval()`.execute(db);
    // A picture deleted takes its faces with it (cascade): their people count one fewer, and a person
    // left with no face is gone.
    await sql`
      create function people_on_face_delete() returns trigger language plpgsql as $$
      begin
        if old.person_id is not null then
          update people set face_count = greatest(face_count - 1, 0) where id = old.person_id;
          delete from people p where p.id = old.person_id and not exists (select 1 from faces f where f.person_id = p.id);
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger people_on_face_delete after delete on faces for each row execute function people_on_face_delete()`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop trigger if exists people_on_face_delete on faces`.execute(db);
    await sql`drop function if exists people_on_face_delete()`.execute(db);
    await sql`drop trigger if exists picture_index_on_approval on pictures`.execute(db);
    await sql`drop function if exists picture_index_on_approval()`.execute(db);
    for (const table of ['people_settings', 'picture_index', 'picture_tags', 'faces', 'people']) await db.schema.dropTable(table).execute();
  },
};

/**
 * Issue 48: a person a member decided about (named, merged, answered, given a face) is `confirmed`: the
 * re-grouping keeps their faces together and never joins them to another confirmed person;
 * `people_apart` holds the pairs a member said are not the same (never suggested again).
 */
const grouping: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('people').addColumn('confirmed', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
    await sql`update people set confirmed = true where name is not null or hidden`.execute(db);
    await db.schema
      .createTable('people_apart')
      .addColumn('a', 'integer', (c) => c.notNull().references('people.id').onDelete('cascade'))
      .addColumn('b', 'integer', (c) => c.notNull().references('people.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('people_apart_pk', ['a', 'b'])
      .addCheckConstraint('people_apart_order', sql`a < b`)
      .execute();
    await db.schema.createIndex('people_apart_b').on('people_apart').column('b').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('people_apart').execute();
    await db.schema.alterTable('people').dropColumn('confirmed').execute();
  },
};

/** Issue 52: who named a person (they, and Family, may see and show them again once hidden). */
const namedBy: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('people')
      .addColumn('named_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('people').dropColumn('named_by').execute();
  },
};

/**
 * Issue 48: the similar pairs of faces are kept as faces arrive (`face_pairs`, each pair once, a < b,
 * at or above the similarity they were found at, `people_settings.pairs_similarity`), so the
 * re-grouping compares only the faces not yet `paired` with the others instead of every face with every
 * face. Existing faces start unpaired: the first re-grouping after this finds their pairs once.
 */
const pairs: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('faces').addColumn('paired', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
    await db.schema.alterTable('people_settings').addColumn('pairs_similarity', 'real').execute();
    await db.schema
      .createTable('face_pairs')
      .addColumn('a', 'integer', (c) => c.notNull().references('faces.id').onDelete('cascade'))
      .addColumn('b', 'integer', (c) => c.notNull().references('faces.id').onDelete('cascade'))
      .addColumn('similarity', 'real', (c) => c.notNull())
      .addPrimaryKeyConstraint('face_pairs_pk', ['a', 'b'])
      .addCheckConstraint('face_pairs_order', sql`a < b`)
      .execute();
    await db.schema.createIndex('face_pairs_b').on('face_pairs').column('b').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('face_pairs').execute();
    await db.schema.alterTable('people_settings').dropColumn('pairs_similarity').execute();
    await db.schema.alterTable('faces').dropColumn('paired').execute();
  },
};

const VECTOR_BYTES = '20261209_people_vector_bytes';

/**
 * Writes each row's vector of `table`, given as text by `text` (real[]'s `{0.1,...}` or JSON's
 * `[0.1,...]`), into `target` as Float32 little-endian bytes (people.vectors.ts), in slices by id.
 */
export async function vectorsToBytes(db: Kysely<any>, table: string, text: RawBuilder<string>, target: string): Promise<void> {
  for (let last = 0; ; ) {
    const rows = await sql<{ id: number; text: string }>`select id, ${text} as text from ${sql.table(table)} where id > ${last} order by id limit 500`.execute(db);
    if (rows.rows.length === 0) return;
    const values = rows.rows.map((r) => {
      const inner = r.text.trim().slice(1, -1);
      const numbers = inner === '' ? [] : inner.split(',').map(Number);
      return sql`(${r.id}::integer, ${vectorBytes(numbers).toString('hex')}::text)`;
    });
    await sql`update ${sql.table(table)} t set ${sql.ref(target)} = decode(v.hex, 'hex') from (values ${sql.join(values)}) as v(id, hex) where t.id = v.id`.execute(db);
    last = rows.rows.at(-1)!.id;
  }
}

const VECTOR_COLUMNS = [
  ['faces', 'embedding'],
  ['people', 'centroid'],
] as const;

/**
 * Issue 48: the embeddings and centroids are stored as bytes (Float32 little-endian, people.vectors.ts)
 * instead of real[], which the re-grouping read as text and parsed number by number (most of its time
 * at 10,000 faces). The rows are converted here, in slices; an archive made before this is converted
 * when restored (peopleAfterRestore).
 */
const vectorBytesMigration: Migration = {
  async up(db: Kysely<any>) {
    for (const [table, column] of VECTOR_COLUMNS) {
      await sql`alter table ${sql.table(table)} add column vector_bytes bytea`.execute(db);
      await vectorsToBytes(db, table, sql<string>`${sql.ref(column)}::text`, 'vector_bytes');
      await sql`alter table ${sql.table(table)} drop column ${sql.ref(column)}`.execute(db);
      await sql`alter table ${sql.table(table)} rename column vector_bytes to ${sql.ref(column)}`.execute(db);
      await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} set not null`.execute(db);
    }
  },
  async down(db: Kysely<any>) {
    for (const [table, column] of VECTOR_COLUMNS) {
      await sql`alter table ${sql.table(table)} add column vector_numbers real[]`.execute(db);
      for (let last = 0; ; ) {
        const rows = await sql<{ id: number; hex: string }>`select id, encode(${sql.ref(column)}, 'hex') as hex from ${sql.table(table)} where id > ${last} order by id limit 500`.execute(db);
        if (rows.rows.length === 0) break;
        const values = rows.rows.map((r) => sql`(${r.id}::integer, ${`{${Array.from(vectorOfHex(r.hex)).join(',')}}`}::real[])`);
        await sql`update ${sql.table(table)} t set vector_numbers = v.numbers from (values ${sql.join(values)}) as v(id, numbers) where t.id = v.id`.execute(db);
        last = rows.rows.at(-1)!.id;
      }
      await sql`alter table ${sql.table(table)} drop column ${sql.ref(column)}`.execute(db);
      await sql`alter table ${sql.table(table)} rename column vector_numbers to ${sql.ref(column)}`.execute(db);
      await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} set not null`.execute(db);
    }
  },
};

/**
 * A backup made before vectorBytesMigration holds the vectors as JSON arrays of numbers; restored into
 * the bytea columns they arrive as the bytes of that text (`[0.1,...]`): converted here
 * (ServerArea.afterRestore, in the restore's transaction).
 */
export async function peopleAfterRestore(trx: Kysely<any>, archived: readonly string[]): Promise<void> {
  if (archived.includes(VECTOR_BYTES)) return;
  for (const [table, column] of VECTOR_COLUMNS) await vectorsToBytes(trx, table, sql<string>`convert_from(${sql.ref(column)}, 'UTF8')`, column);
}

export const peopleMigrations: Record<string, Migration> = {
  '20261130_people_tables': tables,
  '20261201_people_grouping': grouping,
  '20261205_people_named_by': namedBy,
  '20261208_people_pairs': pairs,
  [VECTOR_BYTES]: vectorBytesMigration,
};
