import type { Generated } from 'kysely';

/**
 * Where the site's media are, once `npm run media -- move` has switched it (media.state.ts): one row,
 * or none while the site is where MEDIA_STORE says. `previous` is the store a move switched from while
 * its last pass copies what came in meanwhile: files not in `active` yet are read from there.
 */
export interface MediaStoreTable {
  id: Generated<boolean>;
  active: 'local' | 's3';
  previous: 'local' | 's3' | null;
  changed_at: Generated<Date>;
}

export interface MediaTables {
  media_store: MediaStoreTable;
}
