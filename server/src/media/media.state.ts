import type { Database, Executor } from '../db/database.ts';
import type { ChannelListener } from '../db/notifications.ts';
import type { MediaStorage } from './storage.ts';
import { SwitchingStorage, type StoreState } from './switching.ts';

/** The channel the media_store row's trigger notifies on (media.migrations.ts). */
export const MEDIA_STORE_CHANNEL = 'site_media_store';

/** The store a move recorded (the media_store row), or null while the site is where MEDIA_STORE says. */
export async function recordedStore(db: Executor): Promise<StoreState | null> {
  const row = await db.selectFrom('media_store').select(['active', 'previous']).executeTakeFirst();
  return row ? { active: row.active, previous: row.previous } : null;
}

/** Records where the media are; every server listening switches to it (the row's trigger notifies). */
export async function recordStore(db: Executor, state: StoreState): Promise<void> {
  await db
    .insertInto('media_store')
    .values({ id: true, active: state.active, previous: state.previous })
    .onConflict((c) => c.column('id').doUpdateSet({ active: state.active, previous: state.previous, changed_at: new Date() }))
    .execute();
}

/**
 * Records `state` and switches this server to it at once (the control socket: PGlite, whose one
 * process is this one), then answers where the media are. Null records nothing: only asks.
 */
export async function switchMediaStore(deps: { db: Database; media: MediaStorage }, state: StoreState | null): Promise<StoreState | null> {
  if (state) {
    // Refused before anything is recorded when this server cannot open that store.
    if (deps.media instanceof SwitchingStorage) deps.media.store(state.active);
    await recordStore(deps.db, state);
  }
  return useRecordedStore(deps.db, deps.media);
}

/**
 * Switches `media` to the store the database records, if a move recorded one: at start (before
 * serving) and whenever the row changes. A store the configuration cannot open (the move went to the
 * bucket, but S3_BUCKET is not set here) throws MediaStoreNotConfiguredError, and nothing changes.
 */
export async function useRecordedStore(db: Database, media: MediaStorage): Promise<StoreState | null> {
  const state = await recordedStore(db);
  if (state && media instanceof SwitchingStorage) media.use(state);
  return state;
}

/** Keeps `media` on the recorded store while the server runs: a move's switch reaches every instance in milliseconds. */
export function mediaStoreListener(db: Database, media: MediaStorage, log: { warn(obj: unknown, msg: string): void }): ChannelListener {
  const reread = () =>
    void useRecordedStore(db, media).catch((err: unknown) => log.warn({ err }, 'could not switch to the media store the database records'));
  return {
    channel: MEDIA_STORE_CHANNEL,
    onNotify: reread,
    // A switch made while not listening was missed: read the row again once listening.
    onListening: (listening) => {
      if (listening) reread();
    },
  };
}
