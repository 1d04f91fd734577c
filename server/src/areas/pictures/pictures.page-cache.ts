import type { Database } from '../../db/database.ts';
import type { ChannelListener } from '../../db/notifications.ts';

/** The channel the triggers of migration 20261126_pictures_gallery_notify notify on. */
export const GALLERY_CHANNEL = 'site_pictures';

/** At most this many answers, holding at most this many pictures together, per process; the oldest go first. */
const MAX_ENTRIES = 1000;
const MAX_PICTURES = 20_000;

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
type Entry = { answer: Promise<unknown>; pictures: number };
type PageCache = { listening: boolean; entries: Map<string, Entry>; pictures: number };

const caches = new WeakMap<Database, PageCache>();

function cacheOf(db: Database): PageCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { listening: false, entries: new Map(), pictures: 0 };
    caches.set(db, cache);
  }
  return cache;
}

/** The pictures changed: forget every page (and any read still running). */
export function galleryChanged(db: Database): void {
  const cache = cacheOf(db);
  cache.entries.clear();
  cache.pictures = 0;
}

function forget(cache: PageCache, key: string, entry: Entry): void {
  if (cache.entries.get(key) !== entry) return;
  cache.entries.delete(key);
  cache.pictures -= entry.pictures;
}

/**
 * The answer for `key` from the cache, or `read()` kept there; concurrent misses share one read.
 * `pictures` says how many pictures an answer holds, for the cache's bound.
 */
export function cachedGalleryRead<T>(db: Database, key: string, read: () => Promise<T>, pictures: (answer: T) => number = () => 0): Promise<T> {
  const cache = cacheOf(db);
  if (!cache.listening) return read();
  const hit = cache.entries.get(key);
  if (hit) return hit.answer as Promise<T>;
  const answer = read();
  const entry: Entry = { answer, pictures: 0 };
  cache.entries.set(key, entry);
  answer.then(
    (value) => {
      if (cache.entries.get(key) !== entry) return;
      entry.pictures = pictures(value);
      cache.pictures += entry.pictures;
      for (const [oldKey, old] of cache.entries) {
        if (cache.entries.size <= MAX_ENTRIES && cache.pictures <= MAX_PICTURES) break;
        forget(cache, oldKey, old);
      }
    },
    // A failed read is not kept.
    () => forget(cache, key, entry),
  );
  return answer;
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
