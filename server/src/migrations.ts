import type { Kysely, Migration } from 'kysely';
import type { ServerArea } from './areas/area.ts';
import type { SiteSchema } from './areas/backups/backups.restore.ts';
import { serverAreas } from './areas/index.ts';
import { clientChangesMigrations } from './client-changes/client-changes.migrations.ts';
import { runMigrations } from './db/migrate.ts';
import { mediaMigrations } from './media/media.migrations.ts';
import * as accounts from './identity/identity.migrations.ts';

/**
 * Every migration: the accounts tables every area builds on, then each area's own (areas/index.ts).
 * Listed in code, not globbed, so the esbuild bundle carries them. Never rename or edit one that has
 * shipped; areas' names carry a date and the area, so two areas never collide.
 */
// The client change ids (client-changes/) are shared by the areas the offline queue writes to.
// Where the media are (media/media.state.ts) belongs to no area: every area stores files.
export const migrations: Record<string, Migration> = { '0001_accounts': accounts, ...clientChangesMigrations, ...mediaMigrations };
for (const area of Object.values<ServerArea>(serverAreas)) {
  for (const [name, migration] of Object.entries(area.migrations ?? {})) {
    if (Object.hasOwn(migrations, name)) throw new Error(`Migration ${name} is declared twice`);
    migrations[name] = migration;
  }
}

/** Brings the database to the latest schema (db/migrate.ts runs them); throws a MigrationError naming the failed step. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are typed on Kysely<any>
export const migrateToLatest = (db: Kysely<any>): Promise<string[]> => runMigrations(db, migrations);

/** What a restore needs of the whole site (areas/backups/backups.restore.ts is handed it). */
export const siteSchema: SiteSchema = {
  migrations,
  migrateToLatest,
  async afterRestore(trx, archived) {
    for (const area of Object.values<ServerArea>(serverAreas)) await area.afterRestore?.(trx, archived);
  },
};
