import { ConfigError, loadConfig } from './config.ts';
import { commandBackup } from './areas/backups/backups.service.ts';
import { startControlChannel } from './db/control.ts';
import { createDb, DatabaseInUseError, dbTargetFromConfig } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { listenForSessionChanges } from './identity/session-events.ts';
import { buildApp, createDeps } from './app.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const handle = await createDb(dbTargetFromConfig(config));
  await migrateToLatest(handle.db);
  const deps = createDeps(config, handle.db);
  const app = await buildApp(deps);
  // On PostgreSQL other processes (a second instance, `npm run user`) change sessions and levels too.
  const listener =
    handle.kind === 'postgres' && config.databaseUrl ? listenForSessionChanges(config.databaseUrl, deps.sessions, app.log) : undefined;
  // On PGlite this process alone can open the database: `npm run backup` asks it over DATA_DIR/control.sock.
  const control =
    handle.kind === 'pglite'
      ? await startControlChannel((file) => commandBackup(deps, file), config.dataDir, app.log).catch((err: unknown) => {
          app.log.warn({ err }, 'no control socket in DATA_DIR: `npm run backup` needs the server stopped');
          return undefined;
        })
      : undefined;

  let stopping = false;
  /**
   * Graceful stop: stop accepting connections, close idle keep-alive ones, let requests in flight
   * finish (at most SHUTDOWN_TIMEOUT_SECONDS, then their connections are closed), stop the workers,
   * close the database (PGlite writes its files and releases its lock), and exit 0.
   */
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => {
      app.log.warn('requests still running at the shutdown time limit; closing their connections');
      app.server.closeAllConnections();
    }, config.timeouts.shutdownMs);
    let code = 0;
    try {
      await app.close();
    } catch (err) {
      app.log.error({ err }, 'closing the server failed');
      code = 1;
    } finally {
      clearTimeout(force);
      await listener?.stop();
      await control?.close().catch(() => {});
      await handle.close();
      process.exit(code);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await listener?.ready;
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
