import { sql, type RawBuilder } from 'kysely';
import {
  MONTH_NAMES,
  SEARCH_PAGE,
  SUGGESTIONS_MAX,
  searchMessages,
  searchWords,
  type PictureMap,
  type Picture,
  type SearchResult,
  type SearchSuggestion,
  type SearchSuggestions,
} from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { CARD_COLUMNS, seenBy, type Looker, type PictureCard } from './pictures.repository.ts';
import { toPicture } from './pictures.service.ts';
import { otherPlaceNames } from './pictures.place-names.ts';
import { correctedWords } from './pictures.search-typos.ts';

/**
 * Search: PostgreSQL's full text search over each picture's document (picture_search, made by
 * pictures.search-sources.ts), GIN-indexed; the same SQL on PGlite. Every word of the query must
 * match (several words narrow). A word matches the stemmed free text (english: "dogs" finds "dog")
 * or a name, place or date as written (simple: "may" is an English stop word but a month);
 * abbreviated months stand for the month too ("sept 2019"). Results come newest capture first, as
 * the gallery orders them, SEARCH_PAGE at a time.
 */

const MONTH_ABBREVIATIONS: Record<string, string> = {
  jan: 'january',
  feb: 'february',
  mar: 'march',
  apr: 'april',
  jun: 'june',
  jul: 'july',
  aug: 'august',
  sep: 'september',
  sept: 'september',
  oct: 'october',
  nov: 'november',
  dec: 'december',
};

/**
 * Texts folded as the document is (site_fold: "Málaga" is "malaga"), and lower case, by the database's
 * own function, in one small query: the words then reach the search as constants. Written inside the
 * search's SQL, site_fold(parameter) was evaluated again for every row the planner filtered, and a
 * prefix so written could not use the folded names' index (suggest "tr": 9 ms became 82 ms).
 */
async function foldAll(db: Executor, texts: readonly string[]): Promise<string[]> {
  const rows = await sql<{ f: string }>`select lower(site_fold(t)) as f from unnest(${sql.val(texts)}::text[]) with ordinality as u(t, n) order by n`.execute(db);
  return rows.rows.map((r) => r.f);
}

/** One word, folded (foldAll), as a tsquery: its stem, the word itself, the month it abbreviates, and the place's other names ("firenze": Florence). */
function wordQuery(word: string): RawBuilder<string> {
  const parts = [sql`to_tsquery('english', ${word})`, sql`to_tsquery('simple', ${word})`];
  const month = MONTH_ABBREVIATIONS[word];
  if (month) parts.push(sql`to_tsquery('simple', ${month})`);
  for (const name of otherPlaceNames(word)) parts.push(sql`phraseto_tsquery('simple', ${name})`);
  return sql<string>`(${sql.join(parts, sql` || `)})`;
}

/** Every word ANDed. Words are letters and digits only: nothing of to_tsquery's syntax. */
function queryOf(words: readonly string[]): RawBuilder<string> {
  return sql<string>`(${sql.join(
    words.map((w) => wordQuery(w)),
    sql` && `,
  )})`;
}

type Cursor = { year: number; month: number; day: number; id: number };

function parseCursor(cursor: string | undefined): Cursor | null {
  if (!cursor) return null;
  const [year = 0, month = 0, day = 0, id = 0] = cursor.split('.').map(Number);
  if (month > 12 || day > 31) throw new AppError('BAD_REQUEST', searchMessages.badCursor);
  return { year, month, day, id };
}

const cursorOf = (p: PictureCard) => `${p.year}.${p.month}.${p.day}.${p.id}`;

/** Who searches: a member (the gallery's own rule of what they see), or a guest of one album with the weights their link allows. */
export type Searcher = { looker: Looker } | { albumId: number; weights: readonly ('a' | 'b')[] };

/**
 * How a member's search reads: it first counts the matches, up to COMMON (the GIN index, no order,
 * so it stops there). Fewer: they are all read through the GIN index and sorted, a few milliseconds.
 * A common word: the capture order's b-tree is read backwards until a page of matches is found
 * (1 in 50 pictures or more: a few thousand rows at most, when spread over the years). Left to the
 * planner alone, a word in no document at all was read through the whole capture order (138 ms at
 * 100,000 pictures): the frequency it guesses for an unknown word is far too high.
 */
const COMMON = 2000;

type Found = { picture_id: number; year: number; month: number; day: number };

/** The page's ids from picture_search alone (its copies of the date, status and uploader). */
async function findIds(db: Executor, searcher: Searcher, query: RawBuilder<string>, cursor: Cursor | null): Promise<Found[]> {
  const base = db
    .selectFrom('picture_search')
    .select(['picture_search.picture_id', 'picture_search.year', 'picture_search.month', 'picture_search.day'])
    .$if(cursor !== null, (q) =>
      q.where((eb) =>
        eb(
          eb.refTuple('picture_search.year', 'picture_search.month', 'picture_search.day', 'picture_search.picture_id'),
          '<',
          eb.tuple(cursor?.year ?? 0, cursor?.month ?? 0, cursor?.day ?? 0, cursor?.id ?? 0),
        ),
      ),
    );
  const limit = SEARCH_PAGE + 1;
  if ('albumId' in searcher) {
    // A guest's album is small: its documents are filtered to the weights the link allows, row by row.
    return base
      .innerJoin('album_pictures', 'album_pictures.picture_id', 'picture_search.picture_id')
      .where('album_pictures.album_id', '=', searcher.albumId)
      .where('picture_search.status', '=', 'approved')
      .where(sql<boolean>`ts_filter(picture_search.document, ${sql.val(searcher.weights)}::"char"[]) @@ ${query}`)
      .$call((q) => newestFirst(q))
      .limit(limit)
      .execute();
  }
  const seen = base.where(seenBy(searcher.looker, 'picture_search')).where(sql<boolean>`picture_search.document @@ ${query}`);
  const counted = await db.transaction().execute(async (trx) => {
    // Through the GIN index: a sequential scan hoping to stop early reads every row when nothing matches.
    await sql`set local enable_seqscan = off`.execute(trx);
    return trx
      .selectFrom(seen.limit(COMMON).as('matches'))
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
  });
  if (Number(counted.n) >= COMMON) {
    return seen
      .$call((q) => newestFirst(q))
      .limit(limit)
      .execute();
  }
  // An order the b-tree cannot give (`+ 0`), so the planner takes the GIN index.
  return seen
    .$call((q) => newestFirst(q, true))
    .limit(limit)
    .execute();
}

/** Newest first by capture date, then id; `throughIndex` writes each as `+ 0`, an order no b-tree gives. */
function newestFirst<Q extends { orderBy(expression: RawBuilder<unknown>, direction: 'desc'): Q }>(q: Q, throughIndex = false): Q {
  return (['year', 'month', 'day', 'picture_id'] as const).reduce((qb, column) => {
    const ref = sql.ref(`picture_search.${column}`);
    return qb.orderBy(throughIndex ? sql`${ref} + 0` : sql`${ref}`, 'desc');
  }, q);
}

/** The pictures matching `words` that the searcher sees, after `cursor`, SEARCH_PAGE at a time. */
export async function findPictures(db: Executor, searcher: Searcher, words: readonly string[], cursor: Cursor | null): Promise<SearchResult> {
  if (words.length === 0) return { items: [], nextCursor: null };
  const ids = await findIds(db, searcher, queryOf(await foldAll(db, words)), cursor);
  if (ids.length === 0) return { items: [], nextCursor: null };
  const cards = await db
    .selectFrom('pictures')
    .select(CARD_COLUMNS)
    .select((eb) => eb.selectFrom('users').select('users.name').whereRef('users.id', '=', 'pictures.uploaded_by').as('uploader'))
    .where(
      'id',
      'in',
      ids.map((f) => f.picture_id),
    )
    .execute();
  const byId = new Map(cards.map((c) => [c.id, c]));
  const rows = ids.flatMap((f) => byId.get(f.picture_id) ?? []);
  const page = rows.slice(0, SEARCH_PAGE);
  const last = page[page.length - 1];
  return { items: page.map(toPicture), nextCursor: ids.length > SEARCH_PAGE && last ? cursorOf(last) : null };
}

const lookerOf = (user: SessionUser): Looker => ({ id: user.id, admin: user.level >= 3 });

/** Whether one word alone finds a picture the looker sees: one row through the GIN index (not the page's sort). */
async function anyMatch(db: Executor, looker: Looker, word: string): Promise<boolean> {
  const query = queryOf(await foldAll(db, [word]));
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const row = await sql<{ found: boolean }>`select exists (
      select from picture_search where picture_search.document @@ ${query} and ${seenBy(looker, 'picture_search')}
    ) as found`.execute(trx);
    return row.rows[0]?.found === true;
  });
}

/**
 * `pictures.search`: what this member sees in the gallery, by its words. When the words find nothing
 * at all, a word that finds nothing is taken for a typo of the nearest name of a person, place or tag
 * the member sees (pg_trgm: pictures.search-typos.ts): the pictures of the corrected words come, with
 * `didYouMean` saying what was searched instead ("Sheldn": "Sheldon").
 */
export async function search(deps: AppDeps, user: SessionUser, input: { q: string; cursor?: string | undefined }): Promise<SearchResult> {
  const looker = lookerOf(user);
  const words = searchWords(input.q);
  const cursor = parseCursor(input.cursor);
  const exact = await findPictures(deps.db, { looker }, words, cursor);
  if (exact.items.length > 0 || words.length === 0) return exact;
  // The end of the results of words that do find something is not a typo.
  if (cursor !== null && (await findPictures(deps.db, { looker }, words, null)).items.length > 0) return exact;
  const corrected = await correctedWords(deps.db, looker, words, (w) => anyMatch(deps.db, looker, w));
  if (!corrected) return exact;
  const found = await findPictures(deps.db, { looker }, searchWords(corrected), cursor);
  return found.items.length > 0 ? { ...found, didYouMean: corrected } : exact;
}

/** A guest's search of their link's album (shares.service.ts checks the link): names of people never, places when the link includes location. */
export function searchAlbum(deps: AppDeps, albumId: number, includeLocation: boolean, input: { q: string; cursor?: string | undefined }): Promise<SearchResult> {
  return findPictures(deps.db, { albumId, weights: includeLocation ? ['a', 'b'] : ['a'] }, searchWords(input.q), parseCursor(input.cursor));
}

/**
 * What the words typed so far may become: the last word completed to a place, a year or a month
 * ("May", "May 2021"), a tag or a person's name, of the pictures this member sees, each with the whole
 * query it makes. SUGGESTION_SOURCES is the list to extend.
 */
type SuggestionSource = (db: Executor, looker: Looker, /** folded (foldAll) */ prefix: string, before: readonly string[]) => Promise<Omit<SearchSuggestion, 'query'>[]>;

/**
 * Names are matched folded (site_fold, lower case: "mal" completes to "Málaga", "zoe" to "Zoë") and
 * shown as written. `lower(site_fold(column)) like 'prefix%'`, the prefix folded first (foldAll); the
 * places' folded names are columns of their own (town_key, country_key) with a b-tree read as a range.
 */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const folded = (column: RawBuilder<unknown>) => sql<string>`lower(site_fold(${column}))`;
/** `prefix` is folded already (foldAll). */
const startsWith = (column: RawBuilder<unknown>, prefix: string) => sql<boolean>`${folded(column)} like ${`${escapeLike(prefix)}%`}`;

const placeSuggestions: SuggestionSource = async (db, looker, prefix) => {
  // The names first (a range of the folded names' index), then for each whether the looker sees a
  // picture taken there (one, LIMIT 1): as a semi-join the planner joined every picture to every place.
  const names = async (column: 'town' | 'country') =>
    (
      await sql<{ label: string }>`
        with names as materialized (
          select distinct ${sql.ref(`pl.${column}`)} as label, ${sql.ref(`pl.${column}_key`)} as key from picture_places pl
          where ${sql.ref(`pl.${column}_key`)} like ${`${escapeLike(prefix)}%`}
        )
        select names.label from names cross join lateral (
          select from picture_places pl join pictures on pictures.id = pl.picture_id
          where ${sql.ref(`pl.${column}_key`)} = names.key and ${sql.ref(`pl.${column}`)} = names.label and ${seenBy(looker)}
          limit 1
        ) as seen
        order by names.label limit ${SUGGESTIONS_MAX}`.execute(db)
    ).rows.map((r) => ({ label: r.label, kind: 'place' as const }));
  const [towns, countries] = await Promise.all([names('town'), names('country')]);
  return [...towns, ...countries];
};

const dateSuggestions: SuggestionSource = async (db, looker, prefix, before) => {
  const found: Omit<SearchSuggestion, 'query'>[] = [];
  const months = MONTH_NAMES.map((name, i) => ({ name, month: i + 1 })).filter((m) => m.name.toLowerCase().startsWith(prefix));
  const previousMonth = MONTH_NAMES.findIndex((m) => m.toLowerCase() === before[before.length - 1]) + 1;
  // The months with pictures: picture_days (approved, a small table) and the looker's pending ones.
  const days = await sql<{ year: number; month: number }>`
    select distinct year, month from (
      select year, month from picture_days where approved > 0
      union all
      select year, month from pictures where status = 'pending' and ${seenBy(looker)}
    ) as d
    where year > 0 and (year::text like ${`${/^\d+$/.test(prefix) ? prefix : '-'}%`} or month = any(${sql.val(months.map((m) => m.month))}::int[]))
    order by year desc, month desc
    limit 200`.execute(db);
  for (const m of months) found.push({ label: m.name, kind: 'date' });
  // "May 2" after "May": the years that month has pictures in.
  const years = [...new Set(days.rows.filter((d) => String(d.year).startsWith(prefix) && (previousMonth === 0 || d.month === previousMonth)).map((d) => d.year))];
  for (const year of years) found.push({ label: String(year), kind: 'date' });
  // "May 2021" for "may": the month's newest years.
  for (const m of months) {
    for (const d of days.rows.filter((d) => d.month === m.month).slice(0, 3)) found.push({ label: `${m.name} ${d.year}`, kind: 'date' });
  }
  return found;
};

const tagSuggestions: SuggestionSource = async (db, looker, prefix) =>
  (
    await sql<{ label: string }>`
      select distinct t.tag as label from picture_tags t join pictures on pictures.id = t.picture_id
      where ${startsWith(sql.ref('t.tag'), prefix)} and ${seenBy(looker)}
      order by label limit ${SUGGESTIONS_MAX}`.execute(db)
  ).rows.map((r) => ({ label: r.label, kind: 'tag' as const }));

/** Named people (not hidden; none while people are turned off) with a face in a picture the member sees: any word of the name. */
const personSuggestions: SuggestionSource = async (db, looker, prefix) =>
  (
    await sql<{ label: string }>`
      select pe.name as label from people pe
      where pe.name is not null and not pe.hidden and coalesce((select s.enabled from people_settings s), true)
        and (${startsWith(sql.ref('pe.name'), prefix)} or ${folded(sql.ref('pe.name'))} like ${`% ${escapeLike(prefix)}%`})
        and exists (select from faces f join pictures on pictures.id = f.picture_id where f.person_id = pe.id and ${seenBy(looker)})
      order by pe.name limit ${SUGGESTIONS_MAX}`.execute(db)
  ).rows.map((r) => ({ label: r.label, kind: 'person' as const }));

const SUGGESTION_SOURCES: SuggestionSource[] = [personSuggestions, tagSuggestions, placeSuggestions, dateSuggestions];

/** `pictures.suggest`: completions of the last word typed. */
export async function suggest(deps: AppDeps, user: SessionUser, input: { q: string }): Promise<SearchSuggestions> {
  const words = searchWords(input.q);
  const prefix = words[words.length - 1];
  if (!prefix) return { suggestions: [] };
  const before = words.slice(0, -1);
  const looker = lookerOf(user);
  const [foldedPrefix = prefix, ...foldedBefore] = await foldAll(deps.db, [prefix, ...before]);
  const found = (await Promise.all(SUGGESTION_SOURCES.map((source) => source(deps.db, looker, foldedPrefix, before)))).flat();
  // A word typed before that is already one of a suggestion's words (folded alike: "lodz" and "Łódź") is not repeated.
  const foldedLabels = found.length > 0 ? await foldAll(deps.db, found.map((s) => s.label)) : [];
  const seen = new Set<string>();
  const suggestions: SearchSuggestion[] = [];
  for (const [i, s] of found.entries()) {
    const labelWords = (foldedLabels[i] ?? '').split(/\s+/);
    const query = [...before.filter((_, j) => !labelWords.includes(foldedBefore[j] ?? '')), s.label].join(' ');
    if (seen.has(query.toLowerCase())) continue;
    seen.add(query.toLowerCase());
    suggestions.push({ ...s, query });
  }
  return { suggestions: suggestions.slice(0, SUGGESTIONS_MAX) };
}

/** `pictures.map`: where the pictures this member sees were taken (those with a position). */
export async function map(deps: AppDeps, user: SessionUser): Promise<PictureMap> {
  const result = await sql<{ ids: number[] | null; lat: number[] | null; lon: number[] | null }>`
    select array_agg(pl.picture_id order by pl.picture_id) as ids, array_agg(pl.lat order by pl.picture_id) as lat, array_agg(pl.lon order by pl.picture_id) as lon
    from picture_places pl join pictures on pictures.id = pl.picture_id
    where pl.lat is not null and ${seenBy(lookerOf(user))}`.execute(deps.db);
  const row = result.rows[0];
  return { ids: row?.ids ?? [], lat: row?.lat ?? [], lon: row?.lon ?? [] };
}

/** `pictures.byIds`: the cards of these pictures that this member sees, newest capture first. */
export async function byIds(deps: AppDeps, user: SessionUser, ids: readonly number[]): Promise<Picture[]> {
  const rows = await deps.db
    .selectFrom('pictures')
    .select(CARD_COLUMNS)
    .select((eb) => eb.selectFrom('users').select('users.name').whereRef('users.id', '=', 'pictures.uploaded_by').as('uploader'))
    .where('id', 'in', [...new Set(ids)])
    .where(seenBy(lookerOf(user)))
    .orderBy('year', 'desc')
    .orderBy('month', 'desc')
    .orderBy('day', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toPicture);
}
