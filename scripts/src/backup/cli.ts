import path from 'node:path';
import { ConfigError, loadConfig } from '@site/server/config';
import { BackupError, backupTo, openConfigured, restoreFrom } from '@site/server/db/backup';
import { ControlUnavailableError, requestBackup } from '@site/server/db/control';
import { DatabaseInUseError } from '@site/server/db/database';
import { migrateToLatest } from '@site/server/db/migrate';
import { runMain } from '../run-main.ts';

const usage = `Usage:
  npm run backup -- FILE     write the database and every file users made under DATA_DIR to FILE (.tar.gz)
  npm run restore -- FILE    restore FILE into an empty DATA_DIR (PGlite) or an empty DATABASE_URL

Uses the same configuration as the server (DATA_DIR, DATABASE_URL). A backup runs while the server
serves (one consistent snapshot): on PostgreSQL directly; on the embedded database (PGlite), which opens
in one process only, the running server writes the archive, asked over DATA_DIR/control.sock.
A restore goes into an empty DATA_DIR or database that no server runs on yet.`;

const inUse = `The running server holds the embedded database, and PGlite opens in one process only.
Stop the server (Ctrl+C in its terminal), run this command again, then start the server (\`npm start\`);
it takes a few seconds. On PostgreSQL (DATABASE_URL) backups run while the server serves.`;

const noControl = `The running server holds the embedded database but does not answer on its control socket
(an older version of the site?), so it cannot write the backup for you. Stop the server (Ctrl+C in its
terminal), run this command again, then start the server (\`npm start\`).`;

async function main(argv: string[]): Promise<number> {
  const [command, file] = argv;
  if ((command !== 'backup' && command !== 'restore') || !file) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  let handle;
  try {
    handle = await openConfigured(config);
  } catch (error) {
    // A live server holds the embedded database: it writes the same archive itself.
    if (!(error instanceof DatabaseInUseError) || command !== 'backup' || config.databaseUrl) throw error;
    const manifest = await requestBackup(config.dataDir, target).catch((failure: unknown) => {
      throw failure instanceof ControlUnavailableError ? new BackupError(`${failure.message}.\n${noControl}`) : failure;
    });
    console.log(`Backed up ${manifest.tables.length} tables and the files under ${config.dataDir} to ${target} (written by the running server)`);
    return 0;
  }
  try {
    if (command === 'backup') {
      // What the server would do on start: the archive then always has every table.
      await migrateToLatest(handle.db);
      const manifest = await backupTo(handle.db, config.dataDir, target);
      console.log(`Backed up ${manifest.tables.length} tables and the files under ${config.dataDir} to ${target}`);
    } else {
      const manifest = await restoreFrom(handle.db, config.dataDir, target);
      console.log(`Restored ${manifest.tables.length} tables and the files of the backup made ${manifest.createdAt}`);
    }
    return 0;
  } finally {
    await handle.close();
  }
}

runMain(main, [BackupError, ConfigError, DatabaseInUseError], { kind: DatabaseInUseError, text: inUse });
