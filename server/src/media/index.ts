import path from 'node:path';
import type { Config } from '../config.ts';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import type { MediaStorage } from './storage.ts';

export * from './storage.ts';
export { createLocalStorage, STALE_TEMP_MS } from './local-storage.ts';
export { createS3Storage } from './s3-storage.ts';

/** The store the configuration names (MEDIA_STORE): the only place that knows which one is in use. */
export function createMediaStorage(config: Pick<Config, 'mediaDir' | 'mediaStore'>): MediaStorage {
  const store = config.mediaStore;
  if (store.kind === 'local') return createLocalStorage(config.mediaDir);
  return createS3Storage({ ...store, tempRoot: path.join(config.mediaDir, '.tmp') });
}
