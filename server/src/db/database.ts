import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';

/**
 * Every table of the site. db/ knows no area: the composition (areas/tables.ts) fills this in from the
 * tables each area declares, by declaration merging.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Tables {}

export type Database = Kysely<Tables>;
/** What repository functions take first: the database or a transaction, so transactions compose. */
export type Executor = Kysely<Tables> | Transaction<Tables>;

export type DbTarget =
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite'; dataDir: string }
  /** `loadDataDir`: start from a folder PGlite dumped (dumpDataDir), without initdb (the tests' migrated template). */
  | { kind: 'pglite-memory'; loadDataDir?: Blob };

export type DbHandle = {
  db: Database;
  kind: DbTarget['kind'];
  close: () => Promise<void>;
  /** PGlite only: its own NOTIFYs, delivered in process (PostgreSQL's need a connection: db/notifications.ts). */
  listen?: (channel: string, onNotify: (payload: string) => void) => Promise<() => Promise<void>>;
};

const pgliteListen = (client: PGlite) => (channel: string, onNotify: (payload: string) => void) => client.listen(channel, onNotify);

/**
 * Closes a PGlite and its Kysely. Kysely closes the client only if a query ever ran through it, and
 * an open PGlite's WebAssembly timer keeps the process alive (and its memory held).
 */
async function closePglite(db: Database, client: PGlite): Promise<void> {
  await db.destroy();
  if (!client.closed) await client.close();
}

export class DatabaseInUseError extends Error {}

/** Who holds a lock: the process id, when that process started, and which boot of the machine. */
type LockOwner = { pid: number; started: string | null; boot: string | null };

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** The boot of this machine (Linux): a lock written before a reboot is stale whatever its pid. */
const bootId = () => readText('/proc/sys/kernel/random/boot_id');

/** When process `pid` started, in clock ticks since boot (Linux /proc/<pid>/stat field 22), or null. */
export function processStartTime(pid: number): string | null {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return null;
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process that wrote a lock still runs. A process id alone is not enough: after a crash
 * or in a container the id is reused (the server is often process 1), so the lock records the
 * process's start time and the machine's boot id, and a process with the same id but another start
 * time (or a lock from an earlier boot) is not the owner. Where /proc is missing (not Linux), the
 * process id is all there is.
 */
export function lockOwnerAlive(owner: LockOwner): boolean {
  if (!Number.isInteger(owner.pid) || owner.pid <= 0) return false;
  if (owner.pid === process.pid) return false;
  const boot = bootId();
  if (owner.boot && boot && owner.boot !== boot) return false;
  if (!isAlive(owner.pid)) return false;
  const started = processStartTime(owner.pid);
  if (owner.started && started && owner.started !== started) return false;
  return true;
}

function parseOwner(text: string | null): LockOwner | null {
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner> | number;
    if (typeof parsed === 'number') return { pid: parsed, started: null, boot: null };
    return { pid: Number(parsed.pid), started: parsed.started ?? null, boot: parsed.boot ?? null };
  } catch {
    return null;
  }
}

/** The live process holding the PGlite folder of `dataDir`, if any (the CLI uses it to explain). */
export function pgliteHolder(dataDir: string): number | null {
  const owner = parseOwner(readText(path.join(dataDir, 'site.lock')));
  return owner && lockOwnerAlive(owner) ? owner.pid : null;
}

export const databaseInUseMessage = (dir: string, pid: number) =>
  `The embedded database in ${dir} is open in another process (${pid}, a running server?). ` +
  'PGlite lets one process open it: stop that process first (Ctrl+C in its terminal, or `kill ' +
  `${pid}\`), or use PostgreSQL (DATABASE_URL), which any number of processes share.`;

/**
 * PGlite is one process's database: a second process on the same folder would corrupt it. The lock
 * file site.lock names its owner (process id, start time, boot id); a second opener is refused while
 * that very process lives, and a lock left by a process that died (even when its id was reused since)
 * is taken over. Created with O_EXCL, so two openers never both create it.
 */
function takeLock(dir: string): () => void {
  const lockFile = path.join(dir, 'site.lock');
  const me: LockOwner = { pid: process.pid, started: processStartTime(process.pid), boot: bootId() };
  const mine = JSON.stringify(me);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockFile, mine, { flag: 'wx', mode: 0o600 });
      return () => {
        try {
          if (fs.readFileSync(lockFile, 'utf8') === mine) fs.unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const text = readText(lockFile);
      const owner = parseOwner(text);
      if (owner && lockOwnerAlive(owner)) throw new DatabaseInUseError(databaseInUseMessage(dir, owner.pid));
      // Stale: move exactly the file we judged out of the way (a rename of a newer lock would fail
      // the content check below and be put back).
      const aside = `${lockFile}.stale-${process.pid}`;
      try {
        fs.renameSync(lockFile, aside);
        if (readText(aside) !== text) fs.renameSync(aside, lockFile);
        else fs.rmSync(aside, { force: true });
      } catch {
        // someone else moved it first; try again
      }
    }
  }
  throw new DatabaseInUseError(`Could not lock ${lockFile}`);
}

/**
 * PostgreSQL's buffer pool inside the server process. initdb writes 128 MB, and PGlite (WebAssembly)
 * touches all of it at start: 128 MB of the server's resident memory for a family site's database
 * that the kernel's page cache keeps anyway. 32 MB: a bare process opening a folder measured 310 MB
 * RSS with 128 MB, 199 MB with 32 MB (docs/benchmarks.md, the pictures run).
 */
const PGLITE_START = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

/**
 * PostgreSQL's contrib extensions the schema uses, which PGlite loads only when asked: pg_trgm
 * (similarity of words, for search's typos; a migration runs `create extension if not exists pg_trgm`,
 * which on PostgreSQL is a trusted extension any database owner may create).
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * Creates a new PGlite database in `dir` in a child process. The process that creates one (initdb)
 * keeps its memory: a bare process is at 793 MB RSS after creating a folder and 284 MB after opening
 * one (the whole server: 856 MB and 390 MB). The caller then opens the new folder itself, so a first
 * start costs no more memory than any other.
 */
async function initializePglite(dir: string): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = 'const [pglite, dir] = process.argv.slice(1); require(pglite).PGlite.create(dir).then((db) => db.close());';
  try {
    await promisify(execFile)(process.execPath, ['-e', script, pglite, dir]);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`Could not create the database in ${dir}: ${stderr || (error as Error).message}`, { cause: error });
  }
}

export async function createDb(target: DbTarget): Promise<DbHandle> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: target.kind, close: () => db.destroy() };
  }
  if (target.kind === 'pglite-memory') {
    const client = await PGlite.create(target.loadDataDir ? { loadDataDir: target.loadDataDir, extensions: PGLITE_EXTENSIONS } : { extensions: PGLITE_EXTENSIONS });
    const db = new Kysely<Tables>({ dialect: new PGliteDialect(client) });
    return { db, kind: target.kind, close: () => closePglite(db, client), listen: pgliteListen(client) };
  }
  const dir = path.join(target.dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  const release = takeLock(target.dataDir);
  try {
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await initializePglite(dir);
    const client = await PGlite.create(dir, { startParams: PGLITE_START, extensions: PGLITE_EXTENSIONS });
    const db = new Kysely<Tables>({ dialect: new PGliteDialect(client) });
    let closed = false;
    return {
      db,
      kind: target.kind,
      listen: pgliteListen(client),
      close: async () => {
        if (closed) return;
        closed = true;
        try {
          await closePglite(db, client);
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

export function dbTargetFromConfig(config: { databaseUrl: string | undefined; dataDir: string }): DbTarget {
  return config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir };
}

/** True when the database answers within the time limit. */
export async function pingDb(db: Database, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([sql`select 1`.execute(db).then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
