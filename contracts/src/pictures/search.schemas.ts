import { z } from 'zod';
import { text } from '../text.ts';
import { SEARCH_QUERY_MAX } from './search.rules.ts';
import type { Picture } from './pictures.schemas.ts';

export * from './search.rules.ts';

const q = text({ label: 'Search', max: SEARCH_QUERY_MAX, trim: true });
/** Where the previous answer stopped: the last picture's capture date and id, `year.month.day.id`. */
const cursor = z.string().max(40).regex(/^\d{1,4}\.\d{1,2}\.\d{1,2}\.\d{1,10}$/);

export const searchInput = z.object({ q, cursor: cursor.optional() });
export const suggestInput = z.object({ q });
/** A guest's search inside the album of their link (and its pass when it has a password). */
export const guestSearchInput = z.object({ token: z.string().max(200), pass: z.string().max(200).optional(), q, cursor: cursor.optional() });

/** The pictures found, newest capture first (as the gallery), and where the next ones start (null: no more). */
/** `didYouMean`: the words searched instead when those typed found nothing (a typo of a name: "Sheldn" for "Sheldon"). */
export type SearchResult = { items: Picture[]; nextCursor: string | null; didYouMean?: string };

/** The map: every located picture this member sees, as compact columns (ids, latitudes, longitudes). */
export type PictureMap = { ids: number[]; lat: number[]; lon: number[] };
/** Pictures by id (a map cluster's), at most MAP_PICTURES_MAX; those the member does not see are left out. */
export const MAP_PICTURES_MAX = 500;
export const picturesByIdInput = z.object({ ids: z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(MAP_PICTURES_MAX) });
