import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config.ts';
import {
  BackupError,
  createArchive,
  digestEntry,
  MANIFEST,
  readArchive,
  readSmallEntry,
  unreadable,
  type ArchiveEntry,
  type ManifestEntry,
} from './backup-archive.ts';
import { createDb, dbTargetFromConfig, type DbHandle } from './database.ts';

export { BackupError } from './backup-archive.ts';

/**
 * One archive (.tar.gz) of the site, written in one streaming pass:
 *   db/<table>.ndjson   every table, a JSON object per row, read in one repeatable-read snapshot and
 *                       in foreign-key order;
 *   data/<path>         every file users made under DATA_DIR (not the embedded database's folder,
 *                       its lock and socket, temporary downloads, MEDIA_DIR, the 5eTools copy or
 *                       BACKUP_DIR when they lie inside it);
 *   media/<path>        every file under MEDIA_DIR, wherever it is (not uploads still arriving);
 *   manifest.json       last: the migrations the data was made under, the tables, what was left out
 *                       on purpose and how to get it back, and each entry's size and SHA-256.
 * The archive is written to FILE.partial, synced, verified against its manifest and only then
 * renamed to FILE; a failure removes the partial file. Restoring needs an empty database and empty
 * data and media folders: it verifies the archive, unpacks the files, migrates the database, loads
 * every table in foreign-key order with the same ids and moves the id sequences past them.
 * Archives of format 1 (before the manifest of sums) still restore.
 */
export type LeftOut = { path: string; what: string; restore: string };
export type BackupManifest = {
  format: 2;
  createdAt: string;
  migrations: string[];
  tables: string[];
  /** Where the files came from (data/ and media/ entries go back to the restoring site's folders). */
  folders: { data: string; media: string };
  leftOut: LeftOut[];
  entries: ManifestEntry[];
};
export type LegacyManifest = { format: 1; createdAt: string; migrations: string[]; tables: string[] };

/** The folders a site keeps its files in, and the ones a backup must not take. */
export type BackupFolders = { dataDir: string; mediaDir: string; fivetoolsDir: string; backupDir: string | null };

export const foldersOf = (config: Pick<Config, 'dataDir' | 'mediaDir' | 'fivetoolsDir'> & { backup?: { dir: string | null } }): BackupFolders => ({
  dataDir: config.dataDir,
  mediaDir: config.mediaDir,
  fivetoolsDir: config.fivetoolsDir,
  backupDir: config.backup?.dir ?? null,
});

/** A data folder alone (media and the 5eTools copy at their default places inside it). */
export const asFolders = (folders: BackupFolders | string): BackupFolders =>
  typeof folders === 'string' ? { dataDir: folders, mediaDir: path.join(folders, 'media'), fivetoolsDir: path.join(folders, '5etools'), backupDir: null } : folders;

export class BackupBusyError extends BackupError {}

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
  if (media !== data) for await (const rel of walk(media, (p) => skip(p) || p === data)) yield { name: `media/${rel}`, source: path.join(media, rel) };
}

/** The files of a site by entry name (tests compare two sites with it). */
export async function listSiteFiles(folders: BackupFolders | string): Promise<SiteFile[]> {
  const out: SiteFile[] = [];
  for await (const file of siteFiles(folders)) out.push(file);
  return out;
}

function leftOut(folders: BackupFolders): LeftOut[] {
  return [
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
async function dumpTables(db: AnyDb, stage: string): Promise<{ tables: string[]; migrations: string[] }> {
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

let running = false;

/** Whether this process is writing a backup now. */
export const backupRunning = () => running;

/**
 * Writes the archive of an open database and the site's folders to `file`: to FILE.partial first,
 * synced and verified, then renamed. `signal` stops it between two files (the server stopping). One backup at a time in a process (the control socket and the
 * scheduler share this); on any failure the partial file is removed and nothing has FILE's name.
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
    const { tables, migrations: applied } = await dumpTables(db, stage);
    archive = await createArchive(partial);
    for (const table of tables) await archive.addFile(`db/${table}.ndjson`, path.join(stage, `${table}.ndjson`));
    await fsp.rm(stage, { recursive: true, force: true });
    for await (const { name, source } of siteFiles(f, [target, partial])) {
      if (signal?.aborted) throw new BackupError('The server stopped before the backup finished');
      try {
        await archive.addFile(name, source);
      } catch (error) {
        // Deleted since the folder was listed (a picture removed meanwhile): it is not part of the site.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    const manifest: BackupManifest = {
      format: 2,
      createdAt: new Date().toISOString(),
      migrations: applied,
      tables,
      folders: { data: f.dataDir, media: f.mediaDir },
      leftOut: leftOut(f),
      entries: [...archive.entries],
    };
    await archive.addBuffer(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 1)));
    await archive.finish();
    archive = undefined;
    await verifyArchive(partial);
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

const isManifest = (value: unknown): value is BackupManifest | LegacyManifest =>
  typeof value === 'object' && value !== null && ((value as { format?: unknown }).format === 1 || (value as { format?: unknown }).format === 2);

export async function parseManifest(entry: ArchiveEntry, file: string): Promise<BackupManifest | LegacyManifest> {
  let value: unknown;
  try {
    value = JSON.parse((await readSmallEntry(entry)).toString('utf8'));
  } catch {
    throw new BackupError(`${file}: its manifest is not readable JSON`);
  }
  if (!isManifest(value)) throw new BackupError(`${file}: its manifest is of an unknown format`);
  return value;
}

export type VerifyResult = { manifest: BackupManifest; entries: number; bytes: number; size: number };

const FORMAT_1 = 'was made by an older version of the site (format 1) and has no checksums to verify against; it still restores';

/**
 * Reads the whole archive and checks every entry against the manifest: the same entries in the same
 * order, each of the listed size and SHA-256. Throws a BackupError naming what differs.
 */
export async function verifyArchive(file: string): Promise<VerifyResult> {
  const seen: ManifestEntry[] = [];
  let manifest: BackupManifest | undefined;
  try {
    for await (const entry of readArchive(file)) {
      if (manifest) throw new BackupError(`${file}: an entry (${entry.name}) follows the manifest, which must be last`);
      if (entry.name === MANIFEST) {
        const read = await parseManifest(entry, file);
        if (read.format === 1) throw new BackupError(`${file} ${FORMAT_1}`);
        manifest = read;
        continue;
      }
      seen.push(await digestEntry(entry));
    }
  } catch (error) {
    throw unreadable(file, error);
  }
  if (!manifest) throw new BackupError(`${file} has no manifest: it was cut short or is not a backup of this site`);
  const problems = compareEntries(manifest.entries, seen);
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).join('; ');
    throw new BackupError(`${file} does not match its manifest: ${shown}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`);
  }
  return { manifest, entries: seen.length, bytes: seen.reduce((n, e) => n + e.size, 0), size: (await fsp.stat(file)).size };
}

function compareEntries(expected: ManifestEntry[], seen: ManifestEntry[]): string[] {
  const problems: string[] = [];
  const listed = new Map(expected.map((e) => [e.name, e]));
  const found = new Set<string>();
  for (const entry of seen) {
    const want = listed.get(entry.name);
    if (!want) problems.push(`${entry.name} is not in the manifest`);
    else if (found.has(entry.name)) problems.push(`${entry.name} appears twice`);
    else if (want.size !== entry.size) problems.push(`${entry.name} is ${entry.size} bytes, the manifest says ${want.size}`);
    else if (want.sha256 !== entry.sha256) problems.push(`${entry.name} has a different SHA-256 than the manifest`);
    found.add(entry.name);
  }
  for (const name of listed.keys()) if (!found.has(name)) problems.push(`${name} is missing`);
  return problems;
}

/** Opens the configured database for a backup or restore (PGlite: only when no server holds it). */
export async function openConfigured(config: Config): Promise<DbHandle> {
  return createDb(dbTargetFromConfig(config));
}
