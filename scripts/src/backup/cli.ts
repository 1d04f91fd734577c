import path from 'node:path';
import { commandBackup } from '@site/server/areas/backups/backups.service';
import { ConfigError, loadConfig } from '@site/server/config';
import { BackupError, foldersOf, openConfigured, verifyArchive } from '@site/server/db/backup';
import { restoreFrom } from '@site/server/db/restore';
import { ControlUnavailableError, requestBackup, summarize, type BackupSummary } from '@site/server/db/control';
import { DatabaseInUseError } from '@site/server/db/database';
import { migrateToLatest } from '@site/server/db/migrate';
import { runMain } from '../run-main.ts';

const usage = `Usage:
  npm run backup -- FILE            write the database, DATA_DIR's files and MEDIA_DIR to FILE (.tar.gz), verified
  npm run backup -- --verify FILE   read FILE and check every entry against its manifest (sizes, SHA-256)
  npm run restore -- FILE           restore FILE into an empty DATA_DIR and MEDIA_DIR (PGlite) or an empty DATABASE_URL

Uses the same configuration as the server (DATA_DIR, MEDIA_DIR, DATABASE_URL). A backup runs while the
server serves (one consistent snapshot): on PostgreSQL directly; on the embedded database (PGlite), which
opens in one process only, the running server writes the archive, asked over DATA_DIR/control.sock.
The archive is written to FILE.partial and renamed to FILE only once it is complete and verified.
Left out on purpose: the 5eTools copy (\`npm run 5etools -- install PATH\` brings it back). See docs/backups.md.
A restore goes into an empty DATA_DIR or database that no server runs on yet.`;

const inUse = `The running server holds the embedded database, and PGlite opens in one process only.
Stop the server (Ctrl+C in its terminal), run this command again, then start the server (\`npm start\`);
it takes a few seconds. On PostgreSQL (DATABASE_URL) backups run while the server serves.`;

const noControl = `The running server holds the embedded database but does not answer on its control socket
(an older version of the site?), so it cannot write the backup for you. Stop the server (Ctrl+C in its
terminal), run this command again, then start the server (\`npm start\`).`;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const done = (s: BackupSummary, by: string) =>
  `Backed up ${s.tables} tables and ${s.files} files to ${s.file} (${mb(s.size)}, verified against its manifest)${by}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const verify = command === 'backup' && rest[0] === '--verify';
  const file = verify ? rest[1] : rest[0];
  if ((command !== 'backup' && command !== 'restore') || !file || rest.length !== (verify ? 2 : 1) || file.startsWith('-')) {
    console.error(usage);
    return 2;
  }
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  if (verify) {
    const result = await verifyArchive(target);
    console.log(`${target}: all ${result.entries} entries (${mb(result.bytes)}) match the manifest of the backup made ${result.manifest.createdAt}`);
    return 0;
  }
  const config = loadConfig();
  let handle;
  try {
    handle = await openConfigured(config);
  } catch (error) {
    // A live server holds the embedded database: it writes the same archive itself.
    if (!(error instanceof DatabaseInUseError) || command !== 'backup' || config.databaseUrl) throw error;
    const summary = await requestBackup(config.dataDir, target).catch((failure: unknown) => {
      throw failure instanceof ControlUnavailableError ? new BackupError(`${failure.message}.\n${noControl}`) : failure;
    });
    console.log(done(summary, ' (written by the running server)'));
    return 0;
  }
  try {
    if (command === 'backup') {
      // What the server would do on start: the archive then always has every table.
      await migrateToLatest(handle.db);
      console.log(done(summarize(await commandBackup({ db: handle.db, config }, target)), ''));
    } else {
      const manifest = await restoreFrom(handle.db, foldersOf(config), target);
      console.log(`Restored ${manifest.tables.length} tables and the files of the backup made ${manifest.createdAt}`);
      if (manifest.format === 2) for (const out of manifest.leftOut) console.log(`Not in the backup: ${out.what} (${out.restore})`);
    }
    return 0;
  } finally {
    await handle.close();
  }
}

runMain(main, [BackupError, ConfigError, DatabaseInUseError], { kind: DatabaseInUseError, text: inUse });
