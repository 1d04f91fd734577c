import { sql, type RawBuilder } from 'kysely';
import {
  MONTH_NAMES,
  SEARCH_PAGE,
  SUGGESTIONS_MAX,
  searchMessages,
  searchWords,
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

/** One word as a tsquery: its stem, the word itself, and the month it abbreviates. */
function wordQuery(word: string): RawBuilder<string> {
  const parts = [sql`to_tsquery('english', ${word})`, sql`to_tsquery('simple', ${word})`];
  const month = MONTH_ABBREVIATIONS[word];
  if (month) parts.push(sql`to_tsquery('simple', ${month})`);
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

/** The pictures matching `words` that the searcher sees, after `cursor`, SEARCH_PAGE at a time. */
export async function findPictures(db: Executor, searcher: Searcher, words: readonly string[], cursor: Cursor | null): Promise<SearchResult> {
  if (words.length === 0) return { items: [], nextCursor: null };
  const query = queryOf(words);
  // The page's ids from picture_search alone (its copies of the date, status and uploader), then their cards.
  const found = db
    .selectFrom('picture_search')
    .select(['picture_search.picture_id', 'picture_search.year', 'picture_search.month', 'picture_search.day'])
    .$if('looker' in searcher, (q) => q.where(sql<boolean>`picture_search.document @@ ${query}`).where(seenBy((searcher as { looker: Looker }).looker, 'picture_search')))
    .$if('albumId' in searcher, (q) => {
      const guest = searcher as { albumId: number; weights: readonly string[] };
      // A guest's album is small: its documents are filtered to the weights the link allows, row by row.
      return q
        .innerJoin('album_pictures', 'album_pictures.picture_id', 'picture_search.picture_id')
        .where('album_pictures.album_id', '=', guest.albumId)
        .where('picture_search.status', '=', 'approved')
        .where(sql<boolean>`ts_filter(picture_search.document, ${sql.val(guest.weights)}::"char"[]) @@ ${query}`);
    })
    .$if(cursor !== null, (q) =>
      q.where((eb) =>
        eb(
          eb.refTuple('picture_search.year', 'picture_search.month', 'picture_search.day', 'picture_search.picture_id'),
          '<',
          eb.tuple(cursor?.year ?? 0, cursor?.month ?? 0, cursor?.day ?? 0, cursor?.id ?? 0),
        ),
      ),
    )
    .orderBy('picture_search.year', 'desc')
    .orderBy('picture_search.month', 'desc')
    .orderBy('picture_search.day', 'desc')
    .orderBy('picture_search.picture_id', 'desc')
    .limit(SEARCH_PAGE + 1);
  const rows = await db
    .selectFrom(found.as('found'))
    .innerJoin('pictures', 'pictures.id', 'found.picture_id')
    .select(CARD_COLUMNS.map((c) => `pictures.${c}` as const))
    .select((eb) => eb.selectFrom('users').select('users.name').whereRef('users.id', '=', 'pictures.uploaded_by').as('uploader'))
    .orderBy('found.year', 'desc')
    .orderBy('found.month', 'desc')
    .orderBy('found.day', 'desc')
    .orderBy('found.picture_id', 'desc')
    .execute();
  const page = rows.slice(0, SEARCH_PAGE);
  const last = page[page.length - 1];
  return { items: page.map(toPicture), nextCursor: rows.length > SEARCH_PAGE && last ? cursorOf(last) : null };
}

const lookerOf = (user: SessionUser): Looker => ({ id: user.id, admin: user.level >= 3 });

/** `pictures.search`: what this member sees in the gallery, by its words. */
export function search(deps: AppDeps, user: SessionUser, input: { q: string; cursor?: string | undefined }): Promise<SearchResult> {
  return findPictures(deps.db, { looker: lookerOf(user) }, searchWords(input.q), parseCursor(input.cursor));
}

/** A guest's search of their link's album (shares.service.ts checks the link): names of people never, places when the link includes location. */
export function searchAlbum(deps: AppDeps, albumId: number, includeLocation: boolean, input: { q: string; cursor?: string | undefined }): Promise<SearchResult> {
  return findPictures(deps.db, { albumId, weights: includeLocation ? ['a', 'b'] : ['a'] }, searchWords(input.q), parseCursor(input.cursor));
}

/**
 * What the words typed so far may become: the last word completed to a place, a year or a month
 * ("May", "May 2021") of the pictures this member sees, each with the whole query it makes.
 * SUGGESTION_SOURCES is the list to extend (people's names and tags when they arrive).
 */
type SuggestionSource = (db: Executor, looker: Looker, prefix: string, before: readonly string[]) => Promise<Omit<SearchSuggestion, 'query'>[]>;

/** `lower(column) like 'prefix%'` or a later word of it starting with the prefix ("york" finds "New York"). */
const startsWith = (column: RawBuilder<unknown>, prefix: string) => {
  const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<boolean>`(lower(${column}) like ${`${escaped}%`} or lower(${column}) like ${`% ${escaped}%`} or lower(${column}) like ${`%-${escaped}%`})`;
};

const placeSuggestions: SuggestionSource = async (db, looker, prefix) => {
  const rows = await sql<{ label: string }>`
    select label from (
      select distinct on (label) label, n from (
        select pl.town as label, 2 as n from picture_places pl join pictures on pictures.id = pl.picture_id
        where pl.town is not null and ${startsWith(sql.ref('pl.town'), prefix)} and ${seenBy(looker)}
        union all
        select pl.country, 1 from picture_places pl join pictures on pictures.id = pl.picture_id
        where pl.country is not null and ${startsWith(sql.ref('pl.country'), prefix)} and ${seenBy(looker)}
      ) as found
      order by label
    ) as labels
    order by n desc, label
    limit ${SUGGESTIONS_MAX}`.execute(db);
  return rows.rows.map((r) => ({ label: r.label, kind: 'place' as const }));
};

const dateSuggestions: SuggestionSource = async (db, looker, prefix, before) => {
  const found: Omit<SearchSuggestion, 'query'>[] = [];
  const months = MONTH_NAMES.map((name, i) => ({ name, month: i + 1 })).filter((m) => m.name.toLowerCase().startsWith(prefix));
  const previousMonth = MONTH_NAMES.findIndex((m) => m.toLowerCase() === before[before.length - 1]) + 1;
  const days = await sql<{ year: number; month: number }>`
    select distinct year, month from pictures
    where year > 0 and ${seenBy(looker)}
      and (year::text like ${`${/^\d+$/.test(prefix) ? prefix : '-'}%`} or month = any(${sql.val(months.map((m) => m.month))}::int[]))
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

const SUGGESTION_SOURCES: SuggestionSource[] = [placeSuggestions, dateSuggestions];

/** `pictures.suggest`: completions of the last word typed. */
export async function suggest(deps: AppDeps, user: SessionUser, input: { q: string }): Promise<SearchSuggestions> {
  const words = searchWords(input.q);
  const prefix = words[words.length - 1];
  if (!prefix) return { suggestions: [] };
  const before = words.slice(0, -1);
  const looker = lookerOf(user);
  const found = (await Promise.all(SUGGESTION_SOURCES.map((source) => source(deps.db, looker, prefix, before)))).flat();
  const seen = new Set<string>();
  const suggestions: SearchSuggestion[] = [];
  for (const s of found) {
    const query = [...before.filter((w) => !(s.label.toLowerCase().split(/\s+/).includes(w))), s.label].join(' ');
    if (seen.has(query.toLowerCase())) continue;
    seen.add(query.toLowerCase());
    suggestions.push({ ...s, query });
  }
  return { suggestions: suggestions.slice(0, SUGGESTIONS_MAX) };
}
