import { ConfigError, loadConfig } from './config.ts';
import { commandBackup } from './areas/backups/backups.service.ts';
import { asControlRefusal, summarize } from './areas/backups/backups.write.ts';
import { startControlChannel } from './local-commands/control.ts';
import { createDb, DatabaseInUseError, dbTargetFromConfig } from './db/database.ts';
import { migrateToLatest } from './migrations.ts';
import { dropExtraConnections, listen } from './http/ports.ts';
import { setupCode, setupCodeNotice } from './areas/auth/setup-code.ts';
import { accountCommand } from './areas/auth/commands.ts';
import { buildApp, checkAreasConfig, createDeps } from './app.ts';
import { watchDatabaseChanges } from './watch-changes.ts';
import { switchMediaStore, useRecordedStore } from './media/media.state.ts';
import { pictureImporter } from './areas/pictures/pictures.import.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  checkAreasConfig(config);
  const handle = await createDb(dbTargetFromConfig(config));
  await migrateToLatest(handle.db);
  const deps = createDeps(config, handle.db);
  // A move (`npm run media -- move`) may have switched the site to another store than MEDIA_STORE names.
  const recorded = await useRecordedStore(handle.db, deps.media);
  if (recorded && recorded.active !== config.mediaStore.kind) {
    console.log(`site: the media are in ${deps.media.description} since \`npm run media -- move --to ${recorded.active}\` (MEDIA_STORE=${config.mediaStore.kind} names the store of a new site)`);
  }
  const app = await buildApp(deps);
  // On PostgreSQL other processes (a second instance, `npm run user`) change sessions, levels and pictures too.
  const listener = watchDatabaseChanges(handle, deps, app.log);
  // On PGlite this process alone can open the database: `npm run backup` and `npm run user -- setup-code`
  // ask it over DATA_DIR/control.sock.
  // Stopping the server stops a backup the control socket asked for, as it stops the scheduler's.
  const shuttingDown = new AbortController();
  const importer = pictureImporter(deps);
  const control =
    handle.kind === 'pglite'
      ? await startControlChannel(
          {
            backup: (file) => commandBackup(deps, file, shuttingDown.signal).then(summarize, (error: unknown) => Promise.reject(asControlRefusal(error))),
            setupCode: () => setupCode(handle.db),
            account: (command, args) => accountCommand(deps, command, args),
            mediaStore: (state) => switchMediaStore(deps, state),
            picturesImportStart: (as) => importer.start(as),
            picturesImportFile: (memberId, meta, bytes, signal) => importer.file(memberId, meta, bytes, AbortSignal.any([signal, shuttingDown.signal])),
          },
          config.dataDir,
          app.log,
        ).catch((err: unknown) => {
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
    shuttingDown.abort();
    app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => {
      app.log.warn('requests still running at the shutdown time limit; closing their connections');
      app.server.closeAllConnections();
      dropExtraConnections(app);
    }, config.timeouts.shutdownMs);
    let code = 0;
    try {
      await app.close();
    } catch (err) {
      app.log.error({ err }, 'closing the server failed');
      code = 1;
    } finally {
      clearTimeout(force);
      await listener.stop();
      await control?.close().catch(() => {});
      await handle.close();
      process.exit(code);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await listener.ready;
  const [address, extra] = await listen(app, config);
  const database = handle.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
  app.log.info(`Serving ${address}${extra ? ` and ${extra}` : ''} (database: ${database})`);
  // The line browser tests and scripts wait for, independent of LOG_LEVEL.
  console.log(`site: listening on ${address}`);
  if (extra) console.log(`site: also listening on ${extra}`);
  // While no account exists, the code that lets the owner's account be made from another machine.
  const code = await setupCode(handle.db).catch((err: unknown) => void app.log.warn({ err }, 'no setup code'));
  if (code) console.log(`site: ${setupCodeNotice(code)}`);
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof DatabaseInUseError;
  console.error(known ? `site: ${(error as Error).message}` : error);
  process.exit(1);
});
