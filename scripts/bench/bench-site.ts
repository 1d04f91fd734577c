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

/**
 * The child's side of the memory protocol: says `hello` (one JSON line), then answers `mark` (a
 * collection, then the RSS the peak starts from) and `peak` (the highest RSS since the mark, sampled
 * every 20 ms). Other lines go to `other`, which says whether it answered them.
 */
export function answerMemory(hello: object, other: (line: string) => boolean = () => false): void {
  let peak = process.memoryUsage().rss;
  setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20).unref();
  process.stdout.write(`${JSON.stringify(hello)}\n`);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (line: string) => {
    if (line.startsWith('mark')) {
      global.gc?.();
      peak = process.memoryUsage().rss;
      process.stdout.write(`${JSON.stringify({ rss: peak })}\n`);
    } else if (line.startsWith('peak')) {
      process.stdout.write(`${JSON.stringify({ rss: Math.max(peak, process.memoryUsage().rss) })}\n`);
    } else {
      other(line);
    }
  });
}

/** The parent's side of answerMemory: the child's hello, `ask` (a line out, the answer back) and `stop` (stdin ends, the child exits). */
export async function memoryChild<Hello>(child: { stdin: NodeJS.WritableStream; stdout: NodeJS.ReadableStream; on(event: 'exit', listener: () => void): unknown }): Promise<Hello & { ask(line: string): Promise<string>; stop(): Promise<void> }> {
  const next = lines(child.stdout);
  const hello = JSON.parse(await next()) as Hello;
  return {
    ...hello,
    ask: (line) => {
      child.stdin.write(`${line}\n`);
      return next();
    },
    stop: async () => {
      child.stdin.end();
      await new Promise<void>((resolve) => child.on('exit', resolve));
    },
  };
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
