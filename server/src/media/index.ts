import path from 'node:path';
import type { Config } from '../config.ts';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import { SwitchingStorage } from './switching.ts';

export * from './storage.ts';
export { createLocalStorage, STALE_TEMP_MS } from './local-storage.ts';
export { fileSink } from './temp-area.ts';
export { createS3Storage } from './s3-storage.ts';
export { SwitchingStorage, MediaStoreNotConfiguredError, type StoreName, type StoreState } from './switching.ts';
export { recordStore, recordedStore, useRecordedStore, mediaStoreListener } from './media.state.ts';

/**
 * The site's media store: the one MEDIA_STORE names, switched at run time to the one the database
 * records once a move has switched the site (media.state.ts). The only place that knows which it is.
 */
export function createMediaStorage(config: Pick<Config, 'mediaDir' | 'mediaStore' | 'bucket'>): SwitchingStorage {
  const bucket = config.mediaStore.kind === 's3' ? config.mediaStore : config.bucket;
  return new SwitchingStorage(
    {
      local: createLocalStorage(config.mediaDir),
      ...(bucket ? { s3: createS3Storage({ ...bucket, tempRoot: path.join(config.mediaDir, '.tmp') }) } : {}),
    },
    config.mediaStore.kind,
  );
}
