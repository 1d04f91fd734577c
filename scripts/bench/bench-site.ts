/**
 * The server side of a benchmark's child process: a fresh site on an embedded database in a
 * temporary folder, with a signed-in account 'bench' (admin), served until the parent closes this
 * process's standard input.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDeps, type AppDeps } from '@site/server/app';
import { loadConfig } from '@site/server/config';
import { createDb, type Database, type DbHandle } from '@site/server/db/database';
import { migrateToLatest } from '@site/server/migrations';
import { insertUser } from '@site/server/identity/users.repository';

export type BenchSite = { dir: string; handle: DbHandle; deps: AppDeps; cookie: string; close(): Promise<void> };

/**
 * A migrated database and the app's dependencies in a new folder named from `prefix`; `env` adds
 * configuration; `wrap` gives the app another view of the database (a query counter).
 */
export async function openBenchSite(prefix: string, env: Record<string, string> = {}, wrap: (db: Database) => Database = (db) => db): Promise<BenchSite> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', CLIENT_DIST: path.join(dir, 'no-client'), ...env });
  const handle = await createDb({ kind: 'pglite', dataDir: dir });
  await migrateToLatest(handle.db);
  const deps = createDeps(config, wrap(handle.db));
  const user = await insertUser(handle.db, { name: 'bench', passwordHash: 'x', level: 3 });
  const cookie = `sid=${(await deps.sessions.create(user.id)).token}`;
  return {
    dir,
    handle,
    deps,
    cookie,
    close: async () => {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs until the parent closes standard input; then `close`, and exit. */
export function untilStdinEnds(close: () => Promise<unknown>): void {
  process.stdin.resume();
  process.stdin.on('end', () => void close().then(() => process.exit(0)));
}

/** Serves until the parent closes standard input; then `stop` (the servers), the site, and exit. */
export function serveUntilStdinEnds(site: BenchSite, stop: () => Promise<unknown>): void {
  untilStdinEnds(() => stop().then(() => site.close()));
}

/** Reads a child's output a line at a time: each call resolves with the next line (the parent's side of a line protocol). */
export function lines(stream: NodeJS.ReadableStream) {
  let buffer = '';
  const waiting: ((line: string) => void)[] = [];
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      waiting.shift()?.(line);
    }
  });
  return () => new Promise<string>((resolve) => waiting.push(resolve));
}
