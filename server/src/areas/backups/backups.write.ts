import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { MediaStorage } from '../../media/index.ts';
import { BackupError, createArchive, MANIFEST, STOPPED } from './backups.archive.ts';
import { createDb, dbTargetFromConfig, type DbHandle } from '../../db/database.ts';
import { defaultKeyFile, sign, SIGNATURE, signingKey } from './backups.key.ts';
import { verifyArchive, type BackupManifest, type LeftOut } from './backups.verify.ts';
import { ControlRequestError, type BackupSummary } from '../../local-commands/control.ts';

export { BackupError } from './backups.archive.ts';

/**
 * One archive (.tar.gz) of the site, written in one streaming pass:
 *   db/<table>.ndjson   every table, a JSON object per row, read in one repeatable-read snapshot and
 *                       in foreign-key order;
 *   data/<path>         every file users made under DATA_DIR (not the embedded database's folder,
 *                       its lock and socket, temporary downloads, MEDIA_DIR, the 5eTools copy or
 *                       BACKUP_DIR when they lie inside it);
 *   media/<path>        every file under MEDIA_DIR, wherever it is (not uploads still arriving);
 *   manifest.json       the migrations the data was made under, the tables, what was left out
 *                       on purpose and how to get it back, and each entry's size and SHA-256;
 *   manifest.sig        last: the manifest's HMAC-SHA256 with the site's backup key (backups.key.ts).
 * The archive is written to FILE.partial, synced, verified against its manifest and only then
 * renamed to FILE; a failure removes the partial file. Restoring needs an empty database and empty
 * data and media folders: it verifies the archive, unpacks the files, migrates the database, loads
 * every table in foreign-key order with the same ids and moves the id sequences past them.
 * Archives of format 1 (before the manifest of sums) still restore.
 */
/**
 * The folders a site keeps its files in, the ones a backup must not take, and the key its archives
 * are signed with (BACKUP_KEY_FILE; DATA_DIR/backup.key when not given), never in an archive.
 */
export type BackupFolders = {
  dataDir: string;
  mediaDir: string;
  fivetoolsDir: string;
  backupDir: string | null;
  keyFile?: string;
  /**
   * The site's media store (server/src/media): when its files are not in a folder of this machine
   * (`localFolder` null: a bucket), media/ entries are read from it and restored into it. Otherwise,
   * or without it, MEDIA_DIR's files are taken as files.
   */
  media?: MediaStorage;
  /** BACKUP_MEDIA=skip: no media/ entries; the manifest says they were left out. */
  skipMedia?: boolean;
};

export const foldersOf = (
  config: Pick<Config, 'dataDir' | 'mediaDir' | 'fivetoolsDir'> & { backup?: { dir: string | null }; backupKeyFile?: string; backupMedia?: 'include' | 'skip' },
  media?: MediaStorage,
): BackupFolders => ({
  dataDir: config.dataDir,
  mediaDir: config.mediaDir,
  fivetoolsDir: config.fivetoolsDir,
  backupDir: config.backup?.dir ?? null,
  keyFile: config.backupKeyFile ?? defaultKeyFile(config.dataDir),
  ...(media ? { media } : {}),
  ...(config.backupMedia === 'skip' ? { skipMedia: true } : {}),
});

/** The file a site's backup key is in. */
export const keyFileOf = (folders: BackupFolders | string): string => {
  const f = asFolders(folders);
  return path.resolve(f.keyFile ?? defaultKeyFile(f.dataDir));
};

/** A data folder alone (media and the 5eTools copy at their default places inside it). */
export const asFolders = (folders: BackupFolders | string): BackupFolders =>
  typeof folders === 'string' ? { dataDir: folders, mediaDir: path.join(folders, 'media'), fivetoolsDir: path.join(folders, '5etools'), backupDir: null } : folders;

export class BackupBusyError extends BackupError {}

/** A backup's refusal as the control socket answers it: 409 while another runs, 400 for a bad request; anything else as it is. */
export const asControlRefusal = (error: unknown): unknown =>
  error instanceof BackupBusyError ? new ControlRequestError(error.message, 409) : error instanceof BackupError ? new ControlRequestError(error.message, 400) : error;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables are read as the database has them
export type AnyDb = Kysely<any>;

export async function tableNames(db: AnyDb): Promise<string[]> {
  const result = await sql<{ tablename: string }>`
    select tablename from pg_tables
    where schemaname = current_schema() and tablename not like 'kysely_migration%'
    order by tablename`.execute(db);
  return result.rows.map((r) => r.tablename);
}

/** Tables ordered so that every table comes after the tables its foreign keys point to. */
export async function loadOrder(db: AnyDb, tables: string[]): Promise<string[]> {
  const result = await sql<{ child: string; parent: string }>`
    select c.relname as child, p.relname as parent
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_class p on p.oid = k.confrelid
    join pg_namespace n on n.oid = c.relnamespace
    where k.contype = 'f' and n.nspname = current_schema()`.execute(db);
  const parents = new Map<string, Set<string>>(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of result.rows) if (child !== parent) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t) && [...(parents.get(t) ?? [])].every((p) => placed.has(p) || !parents.has(p)));
    if (ready.length === 0) throw new BackupError('The tables reference each other in a cycle');
    for (const t of ready) {
      placed.add(t);
      ordered.push(t);
    }
  }
  return ordered;
}

async function appliedMigrations(db: AnyDb): Promise<string[]> {
  const result = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return result.rows.map((r) => r.name);
}

/** What a backup leaves out of the data and media folders: never the users' data. */
function skipRule(folders: BackupFolders, also: string[]): (absolute: string) => boolean {
  const skipped = new Set(
    [
      path.join(folders.dataDir, 'pglite'),
      path.join(folders.dataDir, 'control.sock'),
      path.join(folders.dataDir, 'tmp'),
      path.join(folders.mediaDir, '.tmp'),
      keyFileOf(folders),
      folders.fivetoolsDir,
      ...(folders.backupDir ? [folders.backupDir] : []),
      ...also,
    ].map((p) => path.resolve(p)),
  );
  return (absolute) => skipped.has(absolute) || (path.dirname(absolute) === path.resolve(folders.dataDir) && path.basename(absolute).startsWith('site.lock'));
}

async function* walk(root: string, skip: (absolute: string) => boolean, relative = ''): AsyncGenerator<string> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(path.join(root, relative), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const rel = relative ? `${relative}/${entry.name}` : entry.name;
    if (skip(path.join(root, rel))) continue;
    if (entry.isDirectory()) yield* walk(root, skip, rel);
    else if (entry.isFile()) yield rel;
  }
}

type SiteFile = { name: string; source: string };

/** Every file of the site the backup takes, as archive entry names (data/..., media/...), sorted. */
export async function* siteFiles(folders: BackupFolders | string, also: string[] = []): AsyncGenerator<SiteFile> {
  const f = asFolders(folders);
  const data = path.resolve(f.dataDir);
  const media = path.resolve(f.mediaDir);
  const skip = skipRule(f, also);
  for await (const rel of walk(data, (p) => skip(p) || p === media)) yield { name: `data/${rel}`, source: path.join(data, rel) };
  // A media store gives its files itself (storeFiles); skipped media are not taken at all.
  if (media !== data && !remoteStore(f) && !f.skipMedia) for await (const rel of walk(media, (p) => skip(p) || p === data)) yield { name: `media/${rel}`, source: path.join(media, rel) };
}

/** The media store when its files are elsewhere than a folder of this machine (a bucket). */
export const remoteStore = (f: BackupFolders): MediaStorage | null => (f.media && f.media.localFolder === null ? f.media : null);

/** Adds every file of the media store as media/<key>, streamed; a file deleted since it was listed is not part of the site. */
async function addStoreFiles(archive: Awaited<ReturnType<typeof createArchive>>, media: MediaStorage, signal: AbortSignal | undefined): Promise<void> {
  for await (const file of media.walk()) {
    if (signal?.aborted) throw new BackupError(STOPPED);
    const chunks = media.read(file.key)[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    // The first bytes are asked for before the entry starts: a file gone meanwhile fails here, the archive intact.
    let first: IteratorResult<Buffer>;
    try {
      first = await chunks.next();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    await archive.addStream(
      `media/${file.key}`,
      file.size,
      file.modified,
      (async function* () {
        if (!first.done) yield first.value;
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
      })(),
      signal,
    );
  }
}

/** The files of a site by entry name (tests compare two sites with it). */
export async function listSiteFiles(folders: BackupFolders | string): Promise<SiteFile[]> {
  const out: SiteFile[] = [];
  for await (const file of siteFiles(folders)) out.push(file);
  return out;
}

function leftOut(folders: BackupFolders): LeftOut[] {
  return [
    ...(folders.skipMedia
      ? [
          {
            path: folders.media?.description ?? folders.mediaDir,
            what: 'The media (BACKUP_MEDIA=skip): every picture, video, thumbnail and document the database names',
            restore: "bring the store back from its own versioning or copy (docs/storage.md); the database's rows name every file",
          },
        ]
      : []),
    {
      path: folders.fivetoolsDir,
      what: 'The 5eTools copy (FIVETOOLS_DIR): a mirror of a public site, not data of this site',
      restore: 'npm run 5etools -- install PATH',
    },
    {
      path: `${path.join(folders.dataDir, 'tmp')}, ${path.join(folders.mediaDir, '.tmp')}`,
      what: 'Downloads and uploads still in progress',
      restore: 'nothing to restore: they are started again',
    },
  ];
}

/** Reads every table in one repeatable-read snapshot, a row per line, a cursor page at a time. */
async function dumpTables(db: AnyDb, stage: string, signal: AbortSignal | undefined): Promise<{ tables: string[]; migrations: string[] }> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const tables = await loadOrder(trx, await tableNames(trx));
      for (const table of tables) {
        const out = fs.createWriteStream(path.join(stage, `${table}.ndjson`));
        const closed = new Promise<void>((resolve, reject) => {
          out.once('close', resolve);
          out.once('error', reject);
        });
        await sql`declare backup_rows no scroll cursor for select row_to_json(t)::text as line from ${sql.table(table)} t`.execute(trx);
        for (;;) {
          if (signal?.aborted) throw new BackupError(STOPPED);
          const page = await sql<{ line: string }>`fetch forward 500 from backup_rows`.execute(trx);
          if (page.rows.length === 0) break;
          if (!out.write(`${page.rows.map((r) => r.line).join('\n')}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        await sql`close backup_rows`.execute(trx);
        out.end();
        await closed;
      }
      return { tables, migrations: await appliedMigrations(trx) };
    });
}

async function syncFolder(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export type BackupResult = { manifest: BackupManifest; file: string; size: number };

/** What the command prints about a backup (the server's, over the control socket, or its own). */
export type { BackupSummary };

export const summarize = (result: BackupResult): BackupSummary => ({
  file: result.file,
  size: result.size,
  tables: result.manifest.tables.length,
  files: result.manifest.entries.filter((e) => !e.name.startsWith('db/')).length,
  createdAt: result.manifest.createdAt,
});

let running = false;

/** Whether this process is writing a backup now. */
export const backupRunning = () => running;

/**
 * Writes the archive of an open database and the site's folders to `file`: to FILE.partial first,
 * signed, synced and verified, then renamed. `signal` (the server stopping) stops it at once: between
 * two pages of rows, two chunks of a file or two entries of the check. One backup at a time in a
 * process (the control socket and the scheduler share this); on any failure the partial file is
 * removed and nothing has FILE's name. The first backup makes the site's key (backups.key.ts).
 */
export async function backupTo(db: AnyDb, folders: BackupFolders | string, file: string, signal?: AbortSignal): Promise<BackupResult> {
  if (running) throw new BackupBusyError('A backup is already running; try again when it is done');
  running = true;
  const f = asFolders(folders);
  const target = path.resolve(file);
  const partial = `${target}.partial`;
  const stage = await fsp.mkdtemp(path.join(os.tmpdir(), 'site-backup-'));
  let archive: Awaited<ReturnType<typeof createArchive>> | undefined;
  try {
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const key = await signingKey(keyFileOf(f));
    const { tables, migrations: applied } = await dumpTables(db, stage, signal);
    archive = await createArchive(partial);
    for (const table of tables) await archive.addFile(`db/${table}.ndjson`, path.join(stage, `${table}.ndjson`), signal);
    await fsp.rm(stage, { recursive: true, force: true });
    for await (const { name, source } of siteFiles(f, [target, partial])) {
      if (signal?.aborted) throw new BackupError(STOPPED);
      try {
        await archive.addFile(name, source, signal);
      } catch (error) {
        // Deleted since the folder was listed (a picture removed meanwhile): it is not part of the site.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    const store = remoteStore(f);
    if (store && !f.skipMedia) await addStoreFiles(archive, store, signal);
    const manifest: BackupManifest = {
      format: 2,
      createdAt: new Date().toISOString(),
      migrations: applied,
      tables,
      folders: { data: f.dataDir, media: f.mediaDir },
      leftOut: leftOut(f),
      entries: [...archive.entries],
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 1));
    await archive.addBuffer(MANIFEST, manifestBytes);
    await archive.addBuffer(SIGNATURE, sign(manifestBytes, key));
    await archive.finish();
    archive = undefined;
    await verifyArchive(partial, { keyFile: key.file, key, unsigned: false }, signal);
    await fsp.rename(partial, target);
    await syncFolder(path.dirname(target));
    return { manifest, file: target, size: (await fsp.stat(target)).size };
  } catch (error) {
    await archive?.abort();
    await fsp.rm(partial, { force: true });
    throw error;
  } finally {
    await fsp.rm(stage, { recursive: true, force: true });
    running = false;
  }
}

/** Opens the configured database for a backup or restore (PGlite: only when no server holds it). */
export async function openConfigured(config: Config): Promise<DbHandle> {
  return createDb(dbTargetFromConfig(config));
}
