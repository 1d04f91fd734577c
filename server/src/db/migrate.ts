import { Migrator, type Kysely, type Migration, type MigrationResultSet } from 'kysely';

export class MigrationError extends Error {}

/**
 * Brings the database to the latest schema of `migrations` (the site's: server/src/migrations.ts);
 * throws a MigrationError naming the failed step.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are typed on Kysely<any>
export async function runMigrations(db: Kysely<any>, migrations: Record<string, Migration>): Promise<string[]> {
  // Areas land independently, each migration depending only on the accounts tables: a newer area's
  // migration may sort before one that already ran, and must still run.
  const migrator = new Migrator({ db, allowUnorderedMigrations: true, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Migration ${failed?.migrationName ?? ''} failed: ${detail}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
