import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: the search document is made by migrations.
/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * THE ONE PLACE where the search document's sources are listed (pictures.search.ts reads the
 * document; this file makes it).
 *
 * Each picture has one row in picture_search: a tsvector of every word that finds it (and copies of
 * the picture's date, status and uploader, which search filters and orders by), kept by triggers in
 * the transaction of the change (a picture is searchable as soon as its change commits).
 * The tsvector weight of a word says who may find the picture by it:
 *   A  everyone who sees the picture, a share link's guest too: caption, comments, date, the detector's labels
 *   B  members, and guests of a link that includes location: town and country
 *   C  members only, never a guest: people's names, members' own tags (a tag may be a name)
 * Members search the whole document (GIN-indexed); a guest's search filters the document to the
 * weights their link allows (ts_filter) over their album's pictures alone.
 *
 * A source: `text`, SQL over the picture `p` giving the words (null for none); the text search
 * configuration (english stems and drops stop words: free text; simple keeps each word: names,
 * places, dates); its weight; and `refreshedBy`, the tables whose changes change it, each with the
 * SQL of the picture ids a changed row (`r`, NEW or OLD) touches.
 *
 * To add a source: a new list (SEARCH_SOURCES_V2 below is V1 with tags and people's names; V3 is V2
 * with every text folded by site_fold; V4 is V3 with members' tags for members only, so the next list
 * starts from V4 and folds its own) and a
 * migration that calls `searchDocumentMigration(newList, previousList)`; for the suggestions, a row in
 * pictures.search.ts's SUGGESTION_SOURCES (matching folded text, as its others do).
 */
export type SearchSource = {
  name: string;
  config: 'english' | 'simple';
  weight: 'A' | 'B' | 'C';
  text: string;
  refreshedBy: RefreshedBy[];
};

/**
 * A table whose changes change a source: `pictureIds`, the SQL of the picture ids a changed row (`r`,
 * NEW or OLD) touches, run by a trigger for each row (of `columns` only, when named). Or `statement`,
 * for a table whose rows change by the thousand in one statement (faces, when the people are grouped
 * again): triggers for each statement over the transition tables, refreshing once the pictures of the
 * rows that came, went, or changed one of `changed` (its other columns refresh nothing).
 */
export type RefreshedBy = {
  table: string;
  pictureIds: (row: 'new' | 'old') => string;
  columns?: string[];
  statement?: { pictureColumn: string; changed: string[] };
};

const MONTHS = "array['january','february','march','april','may','june','july','august','september','october','november','december']";

export const SEARCH_SOURCES_V1: SearchSource[] = [
  {
    name: 'caption',
    config: 'english',
    weight: 'A',
    text: 'p.caption',
    // The copied columns too (picture_search_refresh).
    refreshedBy: [{ table: 'pictures', pictureIds: (r) => `select ${r}.id`, columns: ['caption', 'year', 'month', 'day', 'status', 'uploaded_by'] }],
  },
  {
    name: 'date',
    config: 'simple',
    weight: 'A',
    // The year and the month's English name ("2019", "may"): "May 2021" finds May 2021's pictures.
    text: `concat_ws(' ', nullif(p.year, 0)::text, (${MONTHS})[nullif(p.month, 0)])`,
    refreshedBy: [],
  },
  {
    name: 'comments',
    config: 'english',
    weight: 'A',
    text: `(select string_agg(c.text, ' ') from picture_comments c where c.picture_id = p.id)`,
    refreshedBy: [{ table: 'picture_comments', pictureIds: (r) => `select ${r}.picture_id` }],
  },
  {
    name: 'place',
    config: 'simple',
    weight: 'B',
    text: `(select concat_ws(' ', pl.town, pl.country) from picture_places pl where pl.picture_id = p.id)`,
    refreshedBy: [{ table: 'picture_places', pictureIds: (r) => `select ${r}.picture_id` }],
  },
];

/**
 * V1 and the people area's words (20261201_pictures_search_people_tags): a picture's tags, members'
 * and the detector's, for everyone who sees it; the names of the people in it (not hidden ones, and
 * none while the owner has turned people off) for members only.
 */
export const SEARCH_SOURCES_V2: SearchSource[] = [
  ...SEARCH_SOURCES_V1,
  {
    name: 'tags',
    config: 'simple',
    weight: 'A',
    text: `(select string_agg(t.tag, ' ') from picture_tags t where t.picture_id = p.id)`,
    refreshedBy: [{ table: 'picture_tags', pictureIds: (r) => `select ${r}.picture_id` }],
  },
  {
    name: 'people',
    config: 'simple',
    weight: 'C',
    text: `(select string_agg(distinct pe.name, ' ') from faces f join people pe on pe.id = f.person_id
      where f.picture_id = p.id and not pe.hidden and coalesce((select s.enabled from people_settings s), true))`,
    refreshedBy: [
      { table: 'faces', pictureIds: (r) => `select ${r}.picture_id` },
      { table: 'people', pictureIds: (r) => `select f.picture_id from faces f where f.person_id = ${r}.id`, columns: ['name', 'hidden'] },
      // The owner's switch: every picture with a face (a rare change).
      { table: 'people_settings', pictureIds: () => `select distinct f.picture_id from faces f`, columns: ['enabled'] },
    ],
  },
];

/**
 * Letters folded to plain Latin ones (20261203_pictures_search_fold), so "Malaga" finds "Málaga" and
 * "zoe" "Zoë": PGlite has no `unaccent`. Each string of `from` maps letter by letter onto `to`
 * (translate), lower and upper case; the letters that become two (ß, æ, œ, þ) are replaced. Frozen:
 * the migration's function and the indexes over it were made from these; a change is a new migration.
 */
export const FOLD_SINGLE: readonly [from: string, to: string][] = [
  ['àáâãäåāăą', 'aaaaaaaaa'],
  ['ÀÁÂÃÄÅĀĂĄ', 'AAAAAAAAA'],
  ['çćĉċč', 'ccccc'],
  ['ÇĆĈĊČ', 'CCCCC'],
  ['ďđð', 'ddd'],
  ['ĎĐÐ', 'DDD'],
  ['èéêëēĕėęě', 'eeeeeeeee'],
  ['ÈÉÊËĒĔĖĘĚ', 'EEEEEEEEE'],
  ['ĝğġģ', 'gggg'],
  ['ĜĞĠĢ', 'GGGG'],
  ['ĥħ', 'hh'],
  ['ĤĦ', 'HH'],
  ['ìíîïĩīĭįı', 'iiiiiiiii'],
  ['ÌÍÎÏĨĪĬĮİ', 'IIIIIIIII'],
  ['ĵ', 'j'],
  ['Ĵ', 'J'],
  ['ķ', 'k'],
  ['Ķ', 'K'],
  ['ĺļľŀł', 'lllll'],
  ['ĹĻĽĿŁ', 'LLLLL'],
  ['ñńņň', 'nnnn'],
  ['ÑŃŅŇ', 'NNNN'],
  ['òóôõöōŏőø', 'ooooooooo'],
  ['ÒÓÔÕÖŌŎŐØ', 'OOOOOOOOO'],
  ['ŕŗř', 'rrr'],
  ['ŔŖŘ', 'RRR'],
  ['śŝşšș', 'sssss'],
  ['ŚŜŞŠȘ', 'SSSSS'],
  ['ţťŧț', 'tttt'],
  ['ŢŤŦȚ', 'TTTT'],
  ['ùúûüũūŭůűų', 'uuuuuuuuuu'],
  ['ÙÚÛÜŨŪŬŮŰŲ', 'UUUUUUUUUU'],
  ['ŵ', 'w'],
  ['Ŵ', 'W'],
  ['ýÿŷ', 'yyy'],
  ['ÝŸŶ', 'YYY'],
  ['źżž', 'zzz'],
  ['ŹŻŽ', 'ZZZ'],
];
export const FOLD_DOUBLE: readonly [from: string, to: string][] = [
  ['ß', 'ss'],
  ['ẞ', 'SS'],
  ['æ', 'ae'],
  ['Æ', 'AE'],
  ['œ', 'oe'],
  ['Œ', 'OE'],
  ['þ', 'th'],
  ['Þ', 'TH'],
];

/**
 * `site_fold(text)`: the text with FOLD's letters folded and combining accents (U+0300-U+036F, a
 * decomposed "é") dropped; case is kept. Immutable, so indexes may use it.
 */
export const foldFunction: Migration = {
  async up(db: Kysely<any>) {
    const from = FOLD_SINGLE.map(([f]) => f).join('');
    const to = FOLD_SINGLE.map(([, t]) => t).join('');
    if ([...from].length !== to.length) throw new Error('FOLD_SINGLE: a letter without its plain one');
    let body = `translate(t, '${from}', '${to}')`;
    for (const [f, t] of FOLD_DOUBLE) body = `replace(${body}, '${f}', '${t}')`;
    body = `regexp_replace(${body}, U&'[\\0300-\\036F]', '', 'g')`;
    await sql
      .raw(`create function site_fold(t text) returns text language sql immutable strict parallel safe as $$ select ${body} $$`)
      .execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop function site_fold(text)`.execute(db);
  },
};

/** V2 with every source's words folded (site_fold): accents no longer count. */
export const SEARCH_SOURCES_V3: SearchSource[] = SEARCH_SOURCES_V2.map((s) => ({ ...s, text: `site_fold(${s.text})` }));

/**
 * V3 with the tags in two (20261205_pictures_search_member_tags): the detector's labels for everyone
 * who sees the picture, guests too; members' own tags (which may be a name) for members only.
 */
export const SEARCH_SOURCES_V4: SearchSource[] = SEARCH_SOURCES_V3.flatMap((s): SearchSource[] =>
  s.name !== 'tags'
    ? [s]
    : [
        { ...s, name: 'labels', text: `site_fold((select string_agg(t.tag, ' ') from picture_tags t where t.picture_id = p.id and t.source = 'model'))` },
        { ...s, name: 'member tags', weight: 'C', text: `site_fold((select string_agg(t.tag, ' ') from picture_tags t where t.picture_id = p.id and t.source <> 'model'))` },
      ],
);

/**
 * V4 with the faces' trigger for each statement (20261210_pictures_search_faces_statements): the
 * re-grouping moves thousands of faces a statement, and the row trigger made a picture's document
 * again per face (95 ms per 10 faces, most of a first re-grouping's time); a face's embedding or
 * `paired` mark changes no document.
 */
export const SEARCH_SOURCES_V5: SearchSource[] = SEARCH_SOURCES_V4.map((source) => ({
  ...source,
  refreshedBy: source.refreshedBy.map((r) => (r.table === 'faces' ? { ...r, statement: { pictureColumn: 'picture_id', changed: ['person_id', 'picture_id'] } } : r)),
}));

/** The sources the newest migration made the document from. */
export const SEARCH_SOURCES_LATEST = SEARCH_SOURCES_V5;

/** The document's SQL: every source's words with its weight, over the picture `p`. */
function documentSql(sources: readonly SearchSource[]): string {
  return sources.map((s) => `setweight(to_tsvector('${s.config}', coalesce(${s.text}, '')), '${s.weight}')`).join('\n      || ');
}

const triggerName = (table: string) => `${table}_search_refresh`;
const functionName = (table: string) => `picture_search_touch_${table}`;

/**
 * A migration that (re)defines the document from `sources`: the function that makes a picture's
 * document, one trigger per table a source reads, and the documents of every picture made again.
 * `previous`: the sources the database had, whose triggers it drops first.
 */
export function searchDocumentMigration(sources: readonly SearchSource[], previous: readonly SearchSource[] = []): Migration {
  const tablesOf = (list: readonly SearchSource[]) => {
    const byTable = new Map<string, { pictureIds: string[]; columns: Set<string> | null; statement?: RefreshedBy['statement'] }>();
    for (const source of list) {
      for (const r of source.refreshedBy) {
        const known = byTable.get(r.table) ?? { pictureIds: [], columns: new Set<string>() };
        if (r.statement) known.statement = r.statement;
        known.pictureIds.push(`(${r.pictureIds('new')})`);
        known.pictureIds.push(`(${r.pictureIds('old')})`);
        if (!r.columns) known.columns = null;
        else for (const c of r.columns) known.columns?.add(c);
        byTable.set(r.table, known);
      }
    }
    return byTable;
  };
  const drop = async (db: Kysely<any>, list: readonly SearchSource[]) => {
    for (const table of tablesOf(list).keys()) {
      // A `statement` table's triggers too, whichever way the list has it.
      for (const event of STATEMENT_EVENTS) await sql`drop trigger if exists ${sql.id(`${triggerName(table)}_${event}`)} on ${sql.table(table)}`.execute(db);
      await sql`drop trigger if exists ${sql.id(triggerName(table))} on ${sql.table(table)}`.execute(db);
      await sql`drop function if exists ${sql.id(functionName(table))}()`.execute(db);
    }
  };
  return {
    async up(db: Kysely<any>) {
      await drop(db, previous);
      await sql
        .raw(
          `create or replace function picture_search_document(p pictures) returns tsvector language sql stable as $$
      select ${documentSql(sources)}
    $$`,
        )
        .execute(db);
      for (const [table, { pictureIds, columns, statement }] of tablesOf(sources)) {
        if (statement) {
          await statementTriggers(db, table, statement);
          continue;
        }
        const [fromNew, fromOld] = [pictureIds.filter((_, i) => i % 2 === 0), pictureIds.filter((_, i) => i % 2 === 1)];
        await sql
          .raw(
            `create function ${functionName(table)}() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'DELETE' then perform picture_search_refresh(array(${fromNew.join(' union ')})); end if;
        if tg_op <> 'INSERT' then perform picture_search_refresh(array(${fromOld.join(' union ')})); end if;
        return null;
      end
      $$`,
          )
          .execute(db);
        // A row trigger: transition tables cannot go with a column list, and a thumbnail's update must not rebuild documents.
        const of = columns ? ` of ${[...columns].join(', ')}` : '';
        const events = columns ? `insert or update${of}` : 'insert or update or delete';
        await sql.raw(`create trigger ${triggerName(table)} after ${events} on ${table} for each row execute function ${functionName(table)}()`).execute(db);
      }
      await sql`select picture_search_refresh(array(select id from pictures))`.execute(db);
    },
    async down(db: Kysely<any>) {
      await drop(db, sources);
    },
  };
}

const STATEMENT_EVENTS = ['insert', 'update', 'delete'] as const;

/** A `statement` table's triggers (RefreshedBy): one refresh per statement, of the pictures its rows touch. */
async function statementTriggers(db: Kysely<any>, table: string, { pictureColumn, changed }: NonNullable<RefreshedBy['statement']>): Promise<void> {
  const moved = changed.map((c) => `n.${c} is distinct from o.${c}`).join(' or ');
  await sql
    .raw(
      `create function ${functionName(table)}() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then perform picture_search_refresh(array(select distinct ${pictureColumn} from new_rows));
        elsif tg_op = 'DELETE' then perform picture_search_refresh(array(select distinct ${pictureColumn} from old_rows));
        else perform picture_search_refresh(array(
          select n.${pictureColumn} from new_rows n join old_rows o on o.id = n.id where ${moved}
          union select o.${pictureColumn} from new_rows n join old_rows o on o.id = n.id where ${moved}));
        end if;
        return null;
      end
      $$`,
    )
    .execute(db);
  const referencing = { insert: 'referencing new table as new_rows', update: 'referencing old table as old_rows new table as new_rows', delete: 'referencing old table as old_rows' };
  for (const event of STATEMENT_EVENTS) {
    await sql
      .raw(`create trigger ${triggerName(table)}_${event} after ${event} on ${table} ${referencing[event]} for each statement execute function ${functionName(table)}()`)
      .execute(db);
  }
}

/** The table, the refresh function and the first document (20261130_pictures_search). */
export const searchTable: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('picture_search')
      .addColumn('picture_id', 'integer', (c) => c.primaryKey().references('pictures.id').onDelete('cascade'))
      .addColumn('document', sql`tsvector`, (c) => c.notNull())
      // The picture's own columns that search filters and orders by, copied: the search reads one table.
      .addColumn('year', 'smallint', (c) => c.notNull())
      .addColumn('month', 'smallint', (c) => c.notNull())
      .addColumn('day', 'smallint', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('uploaded_by', 'integer')
      .execute();
    // A rare word: the GIN index, then the few found sorted. A common one: the capture order read
    // backwards until a page is found (the planner chooses from the word's frequency).
    await sql`create index picture_search_document on picture_search using gin (document)`.execute(db);
    await sql`create index picture_search_order on picture_search (year, month, day, picture_id)`.execute(db);
    // A placeholder: the first searchDocumentMigration replaces it.
    await sql`create function picture_search_document(p pictures) returns tsvector language sql stable as $$ select ''::tsvector $$`.execute(db);
    await sql`
      create function picture_search_refresh(ids integer[]) returns void language sql as $$
        insert into picture_search (picture_id, document, year, month, day, status, uploaded_by)
        select p.id, picture_search_document(p), p.year, p.month, p.day, p.status, p.uploaded_by from pictures p where p.id = any(ids)
        on conflict (picture_id) do update set document = excluded.document, year = excluded.year, month = excluded.month,
          day = excluded.day, status = excluded.status, uploaded_by = excluded.uploaded_by
      $$`.execute(db);
    await searchDocumentMigration(SEARCH_SOURCES_V1).up(db);
  },
  async down(db: Kysely<any>) {
    await searchDocumentMigration(SEARCH_SOURCES_V1).down?.(db);
    await sql`drop function picture_search_refresh(integer[])`.execute(db);
    await sql`drop function picture_search_document(pictures)`.execute(db);
    await db.schema.dropTable('picture_search').execute();
  },
};
