import type { AppDeps } from './deps.ts';
import type { DbHandle } from './db/database.ts';
import { listenInProcess, listenToChannels, type ChannelListener, type Listening } from './db/notifications.ts';
import { sessionChanges } from './identity/session-events.ts';
import { galleryChanges } from './areas/pictures/pictures.page-cache.ts';
import { pushWakeListener } from './areas/notifications/notifications.worker.ts';
import { mediaStoreListener } from './media/media.state.ts';

/** Every in-memory cache that the database's change notifications keep true, and the live feed they drive. */
const listenersOf = (deps: AppDeps, log: { warn(obj: unknown, msg: string): void }): ChannelListener[] => [
  sessionChanges(deps.sessions),
  galleryChanges(deps.db),
  deps.changes.listener,
  pushWakeListener(deps),
  mediaStoreListener(deps.db, deps.media, log),
];

/**
 * Starts listening for the database's change notifications (`ready` once listening): on PostgreSQL
 * over a connection of its own, on PGlite in process. Without either, the caches are left as they are.
 */
export function watchDatabaseChanges(handle: DbHandle, deps: AppDeps, log: { warn(obj: unknown, msg: string): void }): Listening {
  const listeners = listenersOf(deps, log);
  if (handle.kind === 'postgres' && deps.config.databaseUrl) return listenToChannels(deps.config.databaseUrl, listeners, log);
  if (!handle.listen) return { ready: Promise.resolve(), stop: async () => {} };
  const listening = listenInProcess(handle.listen, listeners);
  return { ready: listening.then(() => {}), stop: async () => (await listening).stop() };
}
