import type { PagePath } from '@site/contracts/pages';
import { DEFAULT_GALLERY_PATH } from '@site/contracts/pictures';
import { parseGalleryPath } from '../features/pictures/gallery-path.ts';

/** A tRPC query as its batch link sends it: the procedure's path and its input (none: undefined). */
export type FirstCall = { path: string; input?: unknown };

/**
 * The calls a page's first render makes that its largest paint waits for (issue 53), by the page's own
 * address (its href: a sub-path may ask for other data). main.tsx asks for them beside the startup
 * calls, in one batch of their own (App.tsx `fetchFirstPage`), and renders once they are in the cache;
 * the build has the server preload that batch's exact address with the page's HTML (client/start-hints.ts),
 * so the answer is on its way before any script has run. A page listed here must make these calls in its
 * first render with the same inputs (else they are fetched again), and its `staleTime` must keep them.
 */
export const FIRST_PAGE_CALLS: Partial<Record<PagePath, readonly FirstCall[]>> = {
  // The bare address shows the default gallery (PicturesPage): its first thumbnails are the largest paint.
  '/personal/pictures': [{ path: 'pictures.page', input: parseGalleryPath(DEFAULT_GALLERY_PATH) }],
  // The count of located pictures is the largest text; the markers come from the same call.
  '/personal/pictures/map': [{ path: 'pictures.map' }],
  // PeopleList, SamePerson and FacesWithoutPerson.
  '/personal/pictures/people': [{ path: 'people.list' }, { path: 'people.status' }, { path: 'people.suggestions' }, { path: 'people.unassigned' }],
};

/** The calls for the address `pathname` (a trailing slash ignored), if its page has any. */
export function firstPageCalls(pathname: string): readonly FirstCall[] | undefined {
  const address = pathname.replace(/\/+$/, '') || '/';
  return Object.hasOwn(FIRST_PAGE_CALLS, address) ? FIRST_PAGE_CALLS[address as PagePath] : undefined;
}

/** The address tRPC's batch link (GET, no transformer) asks for `calls` at, as made under `base`. */
export function batchUrl(calls: readonly FirstCall[], base = '/trpc'): string {
  const inputs = Object.fromEntries(calls.map((call, i) => [String(i), call.input]));
  return `${base}/${calls.map((call) => call.path).join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`;
}
