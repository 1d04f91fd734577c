import type { Database } from '../../db/database.ts';
import type { ChannelListener } from '../../db/notifications.ts';

/** The channel the triggers of migration 20261125_pictures_gallery_notify notify on. */
export const GALLERY_CHANNEL = 'site_pictures';

/** At most this many pages are kept per process; the oldest goes first. */
const MAX_ENTRIES = 500;

/**
 * Gallery pages as this process last answered them, so a page asked again costs no query. Any change
 * to the pictures (an upload, approval, edit, deletion, a thumbnail made, an uploader renamed; through
 * any process or by hand in SQL) fires a trigger that NOTIFYs at commit, and every process empties its
 * cache when the notification arrives (db/notifications.ts, as sessions do); a change made through
 * this process empties it at once as well (galleryChanged), so its own next read sees it. The cache
 * is used only while the process listens: until then, and whenever the listening connection is down,
 * every read goes to the database. A read still running when a change arrives is dropped with the
 * rest (callers already waiting get its answer; later ones read again).
 */
type PageCache = { listening: boolean; entries: Map<string, Promise<unknown>> };

const caches = new WeakMap<Database, PageCache>();

function cacheOf(db: Database): PageCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { listening: false, entries: new Map() };
    caches.set(db, cache);
  }
  return cache;
}

/** The pictures changed: forget every page (and any read still running). */
export function galleryChanged(db: Database): void {
  cacheOf(db).entries.clear();
}

/** The answer for `key` from the cache, or `read()` kept there; concurrent misses share one read. */
export function cachedGalleryRead<T>(db: Database, key: string, read: () => Promise<T>): Promise<T> {
  const cache = cacheOf(db);
  if (!cache.listening) return read();
  const hit = cache.entries.get(key) as Promise<T> | undefined;
  if (hit) return hit;
  const pending = read();
  if (cache.entries.size >= MAX_ENTRIES) {
    const oldest = cache.entries.keys().next();
    if (!oldest.done) cache.entries.delete(oldest.value);
  }
  cache.entries.set(key, pending);
  // A failed read is not kept.
  pending.catch(() => {
    if (cache.entries.get(key) === pending) cache.entries.delete(key);
  });
  return pending;
}

/** What the database's notifications do to the gallery cache of `db`. */
export function galleryChanges(db: Database): ChannelListener {
  return {
    channel: GALLERY_CHANNEL,
    onNotify: () => galleryChanged(db),
    onListening: (listening) => {
      galleryChanged(db);
      cacheOf(db).listening = listening;
    },
  };
}
