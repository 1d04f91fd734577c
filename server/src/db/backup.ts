import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import * as tar from 'tar';
import type { Config } from '../config.ts';
import { createDb, dbTargetFromConfig, type DbHandle } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { migrations } from './migrations/index.ts';

/**
 * One archive (.tar.gz) of the site: every table of the database as JSON (db/<table>.json, read in one
 * repeatable-read snapshot) and every file under DATA_DIR that users made (files/...), except the
 * embedded database's own folder and its lock. The manifest names the migrations the data was made
 * under. Restoring needs an empty data folder or database: it migrates it, loads every table in
 * foreign-key order with the same ids, moves the id sequences past them, and unpacks the files.
 */
export type BackupManifest = { format: 1; createdAt: string; migrations: string[]; tables: string[] };

export class BackupError extends Error {}

/** Folder entries under DATA_DIR that are not users' files (control.sock: the live server's socket). */
const NOT_FILES = new Set(['pglite', 'site.lock', 'control.sock']);
const isUserFile = (relative: string) => {
  const first = relative.split(/[\\/]/, 1)[0] ?? '';
  return !NOT_FILES.has(first) && !first.startsWith('site.lock');
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables are read as the database has them
type AnyDb = Kysely<any>;

async function tableNames(db: AnyDb): Promise<string[]> {
  const result = await sql<{ tablename: string }>`
    select tablename from pg_tables
    where schemaname = current_schema() and tablename not like 'kysely_migration%'
    order by tablename`.execute(db);
  return result.rows.map((r) => r.tablename);
}

/** Tables ordered so that every table comes after the tables its foreign keys point to. */
async function loadOrder(db: AnyDb, tables: string[]): Promise<string[]> {
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

function walk(root: string, relative = ''): string[] {
  const dir = path.join(root, relative);
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = relative ? path.join(relative, entry.name) : entry.name;
    if (!isUserFile(rel)) continue;
    if (entry.isDirectory()) out.push(...walk(root, rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/** Every user file under DATA_DIR, relative to it, sorted (the round-trip test compares these). */
export const userFiles = (dataDir: string) => walk(dataDir).sort();

/** Writes the archive of an open database and DATA_DIR's user files to `file`. */
export async function backupTo(db: AnyDb, dataDir: string, file: string): Promise<BackupManifest> {
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'site-backup-'));
  try {
    fs.mkdirSync(path.join(stage, 'db'));
    const manifest = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const tables = await tableNames(trx);
        for (const table of tables) {
          const result = await sql<{ rows: unknown }>`select coalesce(json_agg(t), '[]'::json) as rows from ${sql.table(table)} t`.execute(trx);
          const rows = result.rows[0]?.rows ?? [];
          fs.writeFileSync(path.join(stage, 'db', `${table}.json`), typeof rows === 'string' ? rows : JSON.stringify(rows));
        }
        const made: BackupManifest = { format: 1, createdAt: new Date().toISOString(), migrations: await appliedMigrations(trx), tables };
        return made;
      });
    fs.writeFileSync(path.join(stage, 'manifest.json'), JSON.stringify(manifest, null, 2));
    const files = userFiles(dataDir);
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const partial = `${file}.partial`;
    // The user files are packed from DATA_DIR where they are (no copy), under files/, and that archive
    // joins the staged database in the one .tar.gz (node-tar adds an archive's entries for '@file').
    const entries = ['manifest.json', 'db'];
    if (files.length > 0) {
      const filesTar = path.join(stage, 'files.tar');
      await tar.c({ file: filesTar, cwd: dataDir, portable: true, prefix: 'files' }, files);
      entries.push(`@${filesTar}`);
    }
    await tar.c({ gzip: true, file: partial, cwd: stage, portable: true }, entries);
    fs.renameSync(partial, file);
    return manifest;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

const tableText = async (db: AnyDb, table: string) =>
  String((await sql<{ rows: unknown }>`select coalesce(json_agg(t order by t::text), '[]'::json)::text as rows from ${sql.table(table)} t`.execute(db)).rows[0]?.rows);

/**
 * The rows the migrations themselves put in (reference data such as recipe units), per table: a
 * freshly migrated database holds them, so they neither make a database "not empty" nor clash with
 * the same rows in the archive. Asked of a throw-away in-memory database migrated the same way.
 */
async function seededTables(): Promise<Map<string, string>> {
  const fresh = await createDb({ kind: 'pglite-memory' });
  try {
    await migrateToLatest(fresh.db);
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

/** Restores an archive into an empty database and DATA_DIR. */
export async function restoreFrom(db: AnyDb, dataDir: string, file: string): Promise<BackupManifest> {
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist`);
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'site-restore-'));
  try {
    await tar.x({ file, cwd: stage });
    const manifestFile = path.join(stage, 'manifest.json');
    if (!fs.existsSync(manifestFile)) throw new BackupError(`${file} is not a backup of this site (no manifest.json)`);
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
    const unknown = manifest.migrations.filter((m) => !Object.hasOwn(migrations, m));
    if (unknown.length > 0) {
      throw new BackupError(`The backup was made by a newer version of the site (migrations ${unknown.join(', ')}): update the code first`);
    }
    const seeded = await seededTables();
    if (!(await isEmptyDatabase(db, seeded))) throw new BackupError('The database is not empty: restore into a new, empty database or data folder');
    const existing = userFiles(dataDir);
    if (existing.length > 0) throw new BackupError(`${dataDir} already holds files (${existing[0]}): restore into an empty data folder`);
    await migrateToLatest(db);
    const tables = (await tableNames(db)).filter((t) => manifest.tables.includes(t));
    const order = await loadOrder(db, tables);
    await db.transaction().execute(async (trx) => {
      // The migrations' own rows are in the archive too: they make way for it (children first).
      for (const table of [...order].reverse()) if (seeded.has(table)) await sql`delete from ${sql.table(table)}`.execute(trx);
      for (const table of order) {
        const rows = fs.readFileSync(path.join(stage, 'db', `${table}.json`), 'utf8');
        await sql`insert into ${sql.table(table)} overriding system value
          select * from json_populate_recordset(null::${sql.table(table)}, ${rows}::json)`.execute(trx);
        await resetIdentity(trx, table);
      }
    });
    const filesDir = path.join(stage, 'files');
    if (fs.existsSync(filesDir)) {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.cpSync(filesDir, dataDir, { recursive: true, errorOnExist: true, force: false });
    }
    return manifest;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
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

/** Opens the configured database for a backup or restore (PGlite: only when no server holds it). */
export async function openConfigured(config: Config): Promise<DbHandle> {
  return createDb(dbTargetFromConfig(config));
}
