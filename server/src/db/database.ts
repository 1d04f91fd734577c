import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { Tables } from './schema.ts';

export type Database = Kysely<Tables>;
/** What repository functions take first: the database or a transaction, so transactions compose. */
export type Executor = Kysely<Tables> | Transaction<Tables>;

export type DbTarget =
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'pglite-memory' };

export type DbHandle = { db: Database; kind: DbTarget['kind']; close: () => Promise<void> };

export class DatabaseInUseError extends Error {}

/**
 * PGlite is one process's database: a second process on the same folder would corrupt it. A lock
 * file holding the owner's pid refuses a second opener while the first is alive.
 */
function takeLock(dir: string): () => void {
  const lockFile = path.join(dir, 'site.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(lockFile, 'utf8') === String(process.pid)) fs.unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(lockFile, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new DatabaseInUseError(
          `The database in ${dir} is in use by process ${owner} (a running server?). Stop it first.`,
        );
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new DatabaseInUseError(`Could not lock ${lockFile}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
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
    const client = await PGlite.create();
    const db = new Kysely<Tables>({ dialect: new PGliteDialect(client) });
    return { db, kind: target.kind, close: () => db.destroy() };
  }
  const dir = path.join(target.dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  const release = takeLock(target.dataDir);
  try {
    const client = await PGlite.create(dir);
    const db = new Kysely<Tables>({ dialect: new PGliteDialect(client) });
    let closed = false;
    return {
      db,
      kind: target.kind,
      close: async () => {
        if (closed) return;
        closed = true;
        try {
          await db.destroy();
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
