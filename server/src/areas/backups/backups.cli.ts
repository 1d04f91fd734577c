import path from 'node:path';
import { loadConfig } from '../../config.ts';
import { ControlUnavailableError, requestBackup } from '../../local-commands/control.ts';
import { DatabaseInUseError } from '../../db/database.ts';
import { migrateToLatest, siteSchema } from '../../migrations.ts';
import { createMediaStorage, recordStore, useRecordedStore } from '../../media/index.ts';
import { restoreFrom } from './backups.restore.ts';
import { commandBackup } from './backups.service.ts';
import { trustOf } from './backups.key.ts';
import { verifyArchive } from './backups.verify.ts';
import { BackupError, foldersOf, keyFileOf, openConfigured, summarize, type BackupSummary } from './backups.write.ts';

const usage = `Usage:
  npm run backup -- FILE            write the database, DATA_DIR's files and MEDIA_DIR to FILE (.tar.gz), verified
  npm run backup -- --verify FILE   read FILE and run every check a restore runs: each entry against its manifest
                                    (sizes, SHA-256), names a file system takes, and the signature
  npm run restore -- FILE           restore FILE into an empty DATA_DIR and MEDIA_DIR (PGlite) or an empty DATABASE_URL
  --unsigned                        with --verify or restore: take an archive without a signature by this site's key
                                    (made before backups were signed, or the key is lost); only for a file you trust

Uses the same configuration as the server (DATA_DIR, MEDIA_DIR, DATABASE_URL). A backup runs while the
server serves (one consistent snapshot): on PostgreSQL directly; on the embedded database (PGlite), which
opens in one process only, the running server writes the archive, asked over DATA_DIR/control.sock.
The archive is written to FILE.partial and renamed to FILE only once it is complete and verified. It is
signed with the key in BACKUP_KEY_FILE (DATA_DIR/backup.key), which is not in the archive: keep a copy of it
apart from the backups; restoring on another machine needs it there.
Left out on purpose: the 5eTools copy (\`npm run 5etools -- install PATH\` brings it back). See docs/backups.md.
A restore goes into an empty DATA_DIR or database that no server runs on yet.`;

/** What to do when the running server holds the embedded database (printed after its message). */
export const inUse = `The running server holds the embedded database, and PGlite opens in one process only.
Stop the server (Ctrl+C in its terminal), run this command again, then start the server (\`npm start\`);
it takes a few seconds. On PostgreSQL (DATABASE_URL) backups run while the server serves.`;

const noControl = `The running server holds the embedded database but does not answer on its control socket
(an older version of the site?), so it cannot write the backup for you. Stop the server (Ctrl+C in its
terminal), run this command again, then start the server (\`npm start\`).`;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const done = (s: BackupSummary, by: string) =>
  `Backed up ${s.tables} tables and ${s.files} files to ${s.file} (${mb(s.size)}, verified against its manifest)${by}`;

/**
 * `npm run backup -- FILE`, `npm run backup -- --verify FILE` and `npm run restore -- FILE`: the
 * command's arguments in, its exit code out (scripts/src/backup/cli.ts runs it).
 */
export async function backupCommand(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const flags = rest.filter((arg) => arg.startsWith('-'));
  const [file, ...more] = rest.filter((arg) => !arg.startsWith('-'));
  const verify = command === 'backup' && flags.includes('--verify');
  const unsigned = flags.includes('--unsigned');
  const allowed = command === 'restore' ? ['--unsigned'] : verify ? ['--verify', '--unsigned'] : [];
  if ((command !== 'backup' && command !== 'restore') || !file || more.length > 0 || flags.some((flag) => !allowed.includes(flag))) {
    console.error(usage);
    return 2;
  }
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const config = loadConfig();
  if (verify) {
    const trust = await trustOf(keyFileOf(foldersOf(config)), unsigned);
    const result = await verifyArchive(target, trust);
    const signed = unsigned ? ' (its signature was not checked: --unsigned)' : ` and its signature by ${trust.keyFile}`;
    console.log(`${target}: all ${result.entries} entries (${mb(result.bytes)}) match the manifest of the backup made ${result.manifest.createdAt}${signed}`);
    return 0;
  }
  let handle;
  try {
    handle = await openConfigured(config);
  } catch (error) {
    // A live server holds the embedded database: it writes the same archive itself.
    if (!(error instanceof DatabaseInUseError) || command !== 'backup' || config.databaseUrl) throw error;
    const summary = await requestBackup(config.dataDir, target, (message) => new BackupError(message)).catch((failure: unknown) => {
      throw failure instanceof ControlUnavailableError ? new BackupError(`${failure.message}.\n${noControl}`) : failure;
    });
    console.log(done(summary, ' (written by the running server)'));
    return 0;
  }
  try {
    if (command === 'backup') {
      // What the server would do on start: the archive then always has every table.
      await migrateToLatest(handle.db);
      // The media are where a move put them, whatever MEDIA_STORE says.
      const media = createMediaStorage(config);
      await useRecordedStore(handle.db, media);
      console.log(done(summarize(await commandBackup({ db: handle.db, config, media }, target)), ''));
    } else {
      const media = createMediaStorage(config);
      const manifest = await restoreFrom(siteSchema, handle.db, foldersOf(config, media), target, { unsigned });
      // The media went into the store configured here, whatever store the backed-up site had moved to.
      await recordStore(handle.db, media.state);
      console.log(`Restored ${manifest.tables.length} tables and the files of the backup made ${manifest.createdAt}`);
      if (manifest.format === 2) for (const out of manifest.leftOut) console.log(`Not in the backup: ${out.what} (${out.restore})`);
    }
    return 0;
  } finally {
    await handle.close();
  }
}
