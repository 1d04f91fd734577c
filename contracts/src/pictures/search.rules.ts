/**
 * Searching the gallery (pictures.search, pictures.suggest, shares.search): the words, limits and
 * answers a page uses, without zod (search.schemas.ts validates).
 */

/** The longest query accepted, and the most words of it that count. */
export const SEARCH_QUERY_MAX = 200;
export const SEARCH_WORDS_MAX = 8;
/** Pictures per answer; `nextCursor` asks for the next ones. */
export const SEARCH_PAGE = 60;
export const SUGGESTIONS_MAX = 8;

/** The words of a query: letters and digits, lower-cased, each once, in order, at most SEARCH_WORDS_MAX. */
export function searchWords(q: string): string[] {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, SEARCH_WORDS_MAX);
}

/** A suggestion while typing: what is shown, and the whole query it stands for. */
export type SearchSuggestion = { label: string; query: string; kind: 'place' | 'date' | 'person' | 'tag' };
export type SearchSuggestions = { suggestions: SearchSuggestion[] };

export const searchMessages = {
  badCursor: 'That page of results is no longer there: search again.',
} as const;
