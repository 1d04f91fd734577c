import { ConfigError, loadConfig } from './config.ts';
import { createDb, DatabaseInUseError, dbTargetFromConfig } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { buildApp, createDeps } from './app.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const handle = await createDb(dbTargetFromConfig(config));
  await migrateToLatest(handle.db);
  const app = await buildApp(createDeps(config, handle.db));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    try {
      await app.close();
    } finally {
      await handle.close();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  const address = await app.listen({ port: config.port, host: config.host });
  const database = handle.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
  app.log.info(`Serving ${address} (database: ${database})`);
  // The line browser tests and scripts wait for, independent of LOG_LEVEL.
  console.log(`site: listening on ${address}`);
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof DatabaseInUseError;
  console.error(known ? `site: ${(error as Error).message}` : error);
  process.exit(1);
});
