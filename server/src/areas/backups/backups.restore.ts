import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { BackupError, MANIFEST, readArchive, readSmallEntry, type ArchiveEntry } from './backups.archive.ts';
import { trustOf } from './backups.key.ts';
import { parseManifest, PATH_MAX, placeOf, verifyArchive, type BackupManifest, type LegacyManifest } from './backups.verify.ts';
import { asFolders, keyFileOf, loadOrder, remoteStore, siteFiles, tableNames, type AnyDb, type BackupFolders } from './backups.write.ts';
import { createDb } from '../../db/database.ts';
import { isMediaKey, type MediaStorage } from '../../media/index.ts';
import type { Executor } from '../../db/database.ts';

/**
 * Restoring an archive (backups.write.ts describes it) into an empty database and empty data and media
 * folders: the archive is verified in full first, then read again, each file written to its folder
 * and hashed again on the way; then the database is migrated and every table loaded in foreign-key
 * order with the same ids. Whatever fails, the files and folders it made are removed (the database
 * load is one transaction), so the same restore can run again. An archive must be signed with the
 * site's key (backups.key.ts) unless the owner vouches for it (`unsigned`: archives made before
 * backups were signed, those of format 1 before the manifest of sums, or a key that was lost).
 */
export type RestoreOptions = { unsigned?: boolean };

/**
 * What a restore needs of the whole site, handed in by the composition (migrations.ts's `siteSchema`):
 * the migrations this code knows, how to bring a database to them, and each area's `afterRestore`.
 */
export type SiteSchema = {
  migrations: Readonly<Record<string, unknown>>;
  migrateToLatest(db: AnyDb): Promise<unknown>;
  afterRestore(trx: Executor, archived: readonly string[]): Promise<void>;
};

/** The manifest of an archive: verified in full (format 2), or read from its start (format 1, only when vouched for). */
async function readManifest(file: string, folders: BackupFolders, options: RestoreOptions): Promise<BackupManifest | LegacyManifest> {
  for await (const entry of readArchive(file)) {
    if (entry.name === MANIFEST) {
      const manifest = parseManifest(await readSmallEntry(entry), file);
      if (manifest.format === 1) {
        if (!options.unsigned) {
          throw new BackupError(`${file} was made by an older version of the site (format 1), without checksums or a signature: restore it only if you trust the file, with --unsigned`);
        }
        return manifest;
      }
    }
    break;
  }
  return (await verifyArchive(file, await trustOf(keyFileOf(folders), options.unsigned))).manifest;
}

const tableText = async (db: AnyDb, table: string) =>
  String((await sql<{ rows: unknown }>`select coalesce(json_agg(t order by t::text), '[]'::json)::text as rows from ${sql.table(table)} t`.execute(db)).rows[0]?.rows);

/**
 * The rows the migrations themselves put in (reference data such as recipe units), per table: a
 * freshly migrated database holds them, so they neither make a database "not empty" nor clash with
 * the same rows in the archive. Asked of a throw-away in-memory database migrated the same way,
 * once per process (they depend on this code's migrations only).
 */
const seededOnce = new WeakMap<SiteSchema, Promise<Map<string, string>>>();
function seededTables(schema: SiteSchema): Promise<Map<string, string>> {
  let asked = seededOnce.get(schema);
  if (!asked) {
    asked = askSeededTables(schema);
    seededOnce.set(schema, asked);
    asked.catch(() => seededOnce.delete(schema));
  }
  return asked;
}

async function askSeededTables(schema: SiteSchema): Promise<Map<string, string>> {
  const fresh = await createDb({ kind: 'pglite-memory' });
  try {
    await schema.migrateToLatest(fresh.db);
    const seeded = new Map<string, string>();
    for (const table of await tableNames(fresh.db)) {
      const text = await tableText(fresh.db, table);
      if (text !== '[]') seeded.set(table, text);
    }
    return seeded;
  } finally {
    await fresh.close();
  }
}

/** Whether a database holds no data of the site yet (a fresh database, or migrated but unused). */
async function isEmptyDatabase(db: AnyDb, seeded: Map<string, string>): Promise<boolean> {
  for (const table of await tableNames(db)) {
    const row = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db);
    if (Number(row.rows[0]?.n ?? 0) === 0) continue;
    if (seeded.get(table) !== (await tableText(db, table))) return false;
  }
  return true;
}

/** Where an entry goes when restoring: a staged table, a file of a folder, or nowhere (placeOf refuses what cannot be restored). */
function destination(entry: Pick<ArchiveEntry, 'name' | 'type'>, format: 1 | 2, folders: BackupFolders, stage: string): string | null {
  const place = placeOf(entry, format);
  if (!place) return null;
  const target = path.join(place.root === 'db' ? stage : place.root === 'data' ? folders.dataDir : folders.mediaDir, place.rel);
  if (Buffer.byteLength(target) >= PATH_MAX) throw new BackupError(`${entry.name} would be restored to a path too long for the file system: choose a shorter DATA_DIR or MEDIA_DIR`);
  return target;
}

/** What a restore made on the disk, removed again when it fails: its files, and the folders it created (with all in them). */
class Made {
  private readonly files: string[] = [];
  private readonly folders: string[] = [];

  async folder(dir: string): Promise<void> {
    const first = await fsp.mkdir(dir, { recursive: true });
    if (first) this.folders.push(first);
  }

  file(target: string): void {
    this.files.push(target);
  }

  /** Removes everything, carrying on past what cannot be removed; returns what is left. */
  async remove(): Promise<string[]> {
    const left: string[] = [];
    for (const target of [...this.files.reverse(), ...this.folders.reverse()]) {
      await fsp.rm(target, { recursive: true, force: true }).catch(() => left.push(target));
    }
    return left;
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];

/** Inserts a staged table's rows in batches (format 1 holds one JSON array, format 2 a row per line). */
async function loadTable(db: AnyDb, table: string, staged: string, format: 1 | 2): Promise<void> {
  const insert = (rows: string) =>
    sql`insert into ${sql.table(table)} overriding system value
      select * from json_populate_recordset(null::${sql.table(table)}, ${rows}::json)`.execute(db);
  if (!fs.existsSync(staged)) return;
  if (format === 1) {
    await insert(await fsp.readFile(staged, 'utf8'));
    return;
  }
  let batch: string[] = [];
  const lines = readline.createInterface({ input: fs.createReadStream(staged, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    batch.push(line);
    if (batch.length === 500) {
      await insert(`[${batch.join(',')}]`);
      batch = [];
    }
  }
  if (batch.length > 0) await insert(`[${batch.join(',')}]`);
}

/** Restores an archive into an empty database and empty data and media folders. */
export async function restoreFrom(schema: SiteSchema, db: AnyDb, folders: BackupFolders | string, file: string, options: RestoreOptions = {}): Promise<BackupManifest | LegacyManifest> {
  const f = asFolders(folders);
  const manifest = await readManifest(file, f, options);
  const unknown = manifest.migrations.filter((m) => !Object.hasOwn(schema.migrations, m));
  if (unknown.length > 0) {
    throw new BackupError(`The backup was made by a newer version of the site (migrations ${unknown.join(', ')}): update the code first`);
  }
  const seeded = await seededTables(schema);
  if (!(await isEmptyDatabase(db, seeded))) throw new BackupError('The database is not empty: restore into a new, empty database or data folder');
  for await (const existing of siteFiles(f)) {
    throw new BackupError(`${existing.source} already exists: restore into an empty data folder (and media folder)`);
  }
  const store = remoteStore(f);
  if (store) {
    for await (const existing of store.walk()) {
      throw new BackupError(`${existing.key} already exists in ${store.description}: restore into an empty media store`);
    }
  }
  const intoStore: string[] = [];
  const listed = manifest.format === 2 ? new Map(manifest.entries.map((e) => [e.name, e])) : null;
  const stage = await fsp.mkdtemp(path.join(os.tmpdir(), 'site-restore-'));
  // Every place is known before anything is written: a name the file system refuses stops nothing half-way.
  if (manifest.format === 2) for (const entry of manifest.entries) destination({ name: entry.name, type: 'file' }, 2, f, stage);
  const made = new Made();
  try {
    for await (const entry of readArchive(file)) {
      const place = placeOf(entry, manifest.format);
      if (store && place?.root === 'media' && isMediaKey(place.rel)) {
        // Into the configured bucket, streamed and checked on the way.
        await restoreIntoStore(store, entry, place.rel, listed?.get(entry.name)?.sha256, intoStore, file);
        continue;
      }
      const target = destination(entry, manifest.format, f, stage);
      if (!target) continue;
      await made.folder(path.dirname(target));
      made.file(target);
      // Hashed again as it is written: the archive must not have changed since it was verified.
      const hash = createHash('sha256');
      await pipeline(
        entry.stream,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            hash.update(chunk);
            yield chunk;
          }
        },
        fs.createWriteStream(target, { flags: 'wx' }),
      );
      const want = listed?.get(entry.name);
      if (listed && want?.sha256 !== hash.digest('hex')) throw new BackupError(`${file} changed while it was being restored (${entry.name})`);
    }
    await schema.migrateToLatest(db);
    const tables = (await tableNames(db)).filter((t) => manifest.tables.includes(t));
    const order = await loadOrder(db, tables);
    await db.transaction().execute(async (trx) => {
      // The archive holds what triggers derive (the gallery's paging token) as it was: the tables'
      // own triggers stay off while it loads, as pg_dump's --disable-triggers (the owner may do it).
      for (const table of order) await sql`alter table ${sql.table(table)} disable trigger user`.execute(trx);
      // The migrations' own rows are in the archive too: they make way for it (children first).
      for (const table of [...order].reverse()) if (seeded.has(table)) await sql`delete from ${sql.table(table)}`.execute(trx);
      for (const table of order) {
        await loadTable(trx, table, path.join(stage, `${table}.ndjson`), manifest.format);
        await resetIdentity(trx, table);
      }
      for (const table of order) await sql`alter table ${sql.table(table)} enable trigger user`.execute(trx);
      // What an area derives from rows an older version wrote is made again (an archive from before a data migration).
      await schema.afterRestore(trx, manifest.migrations);
    });
    return manifest;
  } catch (error) {
    const left = await made.remove();
    for (const key of intoStore) await store?.delete(key).catch(() => left.push(`${key} in ${store.description}`));
    const cleaned = left.length === 0 ? 'the files it wrote are removed' : `remove what it could not: ${left.join(', ')}`;
    if (error instanceof BackupError && left.length === 0) throw error;
    throw new BackupError(`The restore failed (${messageOf(error)}); nothing was restored: ${cleaned}`, { cause: error });
  } finally {
    await fsp.rm(stage, { recursive: true, force: true });
  }
}

/** Writes one media/ entry into the store under its key; a copy whose SHA-256 is not the manifest's is not kept. */
async function restoreIntoStore(media: MediaStorage, entry: ArchiveEntry, key: string, sha256: string | undefined, made: string[], file: string): Promise<void> {
  // tar-stream's entries are streamx streams: Node's pipeline takes them as plain async iterables only.
  const incoming = await media.receive(Readable.from(entry.stream), { maxBytes: entry.size });
  if (sha256 !== undefined && incoming.sha256 !== sha256) {
    await incoming.discard();
    throw new BackupError(`${file} changed while it was being restored (${entry.name})`);
  }
  made.push(key);
  await incoming.commit(key);
}

/** Moves each identity or serial column's sequence past the restored ids. */
async function resetIdentity(db: AnyDb, table: string): Promise<void> {
  const columns = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}
      and (is_identity = 'YES' or column_default like 'nextval(%')`.execute(db);
  for (const { column_name: column } of columns.rows) {
    await sql`select setval(pg_get_serial_sequence(${table}, ${column}), coalesce((select max(${sql.ref(column)}) from ${sql.table(table)}), 0) + 1, false)`.execute(
      db,
    );
  }
}

