import { createHash, randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { RESUMABLE_FOLDER } from '../src/media/temp-area.ts';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import type { Level } from '@site/contracts';
import { buildApp, createDeps, type AppDeps } from '../src/app.ts';
import type { SessionUser } from '../src/identity/session-user.ts';
import { hashToken } from '../src/identity/sessions.ts';
import { insertUser } from '../src/identity/users.repository.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { AppError } from '../src/errors.ts';
import { createDb, type Database, type DbHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/migrations.ts';
import { createContextInner } from '../src/trpc/context.ts';
import { appRouter } from '../src/router.ts';
import { listen } from '../src/http/ports.ts';
import type { Listening } from '../src/db/notifications.ts';
import { watchDatabaseChanges } from '../src/watch-changes.ts';

export type TestDbKind = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set (CI). Use with describe.each. */
export const databases: TestDbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export const TEST_PASSWORD = 'correct horse';

/** The media store every test server gets unless its test names one: TEST_MEDIA_STORE=s3 (test/global-setup.ts) or the local disk. */
function mediaStoreEnv(): Record<string, string> {
  try {
    return inject('mediaStoreEnv') ?? {};
  } catch {
    return {}; // not under vitest's runner
  }
}

/**
 * A configuration for tests: light argon2 cost, no logs, a client folder that does not exist. Under
 * TEST_MEDIA_STORE=s3 the media go to the run's s3rver, in a folder of the bucket named after
 * MEDIA_DIR (servers sharing a MEDIA_DIR share the folder, as they share the disk folder locally).
 */
export function testConfig(env: Record<string, string> = {}): Config {
  const store = env.MEDIA_STORE === undefined ? mediaStoreEnv() : {};
  const mediaDir = env.MEDIA_DIR ?? path.join(env.DATA_DIR ?? path.join(os.tmpdir(), 'site-test-unused'), 'media');
  const folder = `${createHash('sha256').update(path.resolve(mediaDir)).digest('hex').slice(0, 16)}/`;
  return loadConfig({
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    LOG_LEVEL: 'silent',
    DATA_DIR: path.join(os.tmpdir(), 'site-test-unused'),
    CLIENT_DIST: path.join(os.tmpdir(), 'site-test-no-client'),
    // The indexing child loads its models in seconds and hundreds of MB: tests that want it index by hand (drainIndex).
    PEOPLE_INDEXING: 'off',
    ...(store.MEDIA_STORE ? { ...store, S3_PREFIX: folder } : {}),
    ...env,
  });
}

/** The files stored under a folder of the media store (whichever it is), by name, sorted. */
export async function storedFiles(deps: AppDeps, folder: string): Promise<string[]> {
  return (await deps.media.list(folder)).map((f) => f.key.slice(folder.length + 1)).sort();
}

/** Removes every file under a folder of the media store (whichever it is). */
export async function emptyMediaFolder(deps: AppDeps, folder: string): Promise<void> {
  for (const file of await deps.media.list(folder)) await deps.media.delete(file.key);
}

export type TestDb = DbHandle & { url?: string };

/** The migrated templates test/global-setup.ts made for this run ('' when it made none). */
function template(key: 'pgliteTemplate' | 'postgresTemplate'): string {
  try {
    return inject(key) ?? '';
  } catch {
    return ''; // not under vitest's runner
  }
}

/** The migrated PGlite folder's tar, read once per test file. */
let pgliteTar: Blob | undefined;

/** A fresh in-memory PGlite loaded from the migrated template, or migrated here when there is no template. */
async function createPglite(): Promise<DbHandle> {
  const tar = template('pgliteTemplate');
  if (!tar) {
    const handle = await createDb({ kind: 'pglite-memory' });
    await migrateToLatest(handle.db);
    return handle;
  }
  pgliteTar ??= new Blob([fs.readFileSync(tar)]);
  return createDb({ kind: 'pglite-memory', loadDataDir: pgliteTar });
}

/**
 * A fresh, migrated database. For PostgreSQL it creates a database of its own on the server named
 * by TEST_DATABASE_URL (and drops it on close); nothing else there is touched. Both kinds start as a
 * copy of a database migrated once per run (test/global-setup.ts).
 */
export async function createTestDb(kind: TestDbKind): Promise<TestDb> {
  if (kind === 'pglite') return createPglite();
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `site_test_${randomBytes(6).toString('hex')}`;
  const from = template('postgresTemplate');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${from ? ` template ${from}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await createDb({ kind: 'postgres', url: url.toString() });
  if (!from) await migrateToLatest(handle.db);
  return {
    ...handle,
    url: url.toString(),
    close: async () => {
      await handle.close();
      const again = new pg.Client({ connectionString: adminUrl });
      await again.connect();
      try {
        await again.query(`drop database if exists ${name} with (force)`);
      } finally {
        await again.end();
      }
    },
  };
}

/** Every table of the schema, asked of the database (the areas declare them; nothing lists them twice). */
async function tableNames(db: Database): Promise<string[]> {
  const result = await sql<{ tablename: string }>`
    select tablename from pg_tables
    where schemaname = current_schema() and tablename not like 'kysely_migration%'
    order by tablename`.execute(db);
  return result.rows.map((row) => row.tablename);
}

const tablesOf = new WeakMap<Database, Promise<string[]>>();

export async function truncateAll(db: Database): Promise<void> {
  let names = tablesOf.get(db);
  if (!names) tablesOf.set(db, (names = tableNames(db)));
  const tables = await names;
  if (tables.length === 0) return;
  // A worker of the app under test (notifications, pictures) may hold row locks in another order than
  // TRUNCATE takes its table locks: PostgreSQL then ends one of the two as a deadlock. Try again.
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`truncate table ${sql.join(tables.map((t) => sql.table(t)))} restart identity cascade`.execute(db);
      return;
    } catch (error) {
      if (attempt >= 5 || (error as { code?: unknown }).code !== '40P01') throw error;
    }
  }
}

/**
 * What each trigger function does on TRUNCATE, as far as emptyAll must know (the migrations name them):
 * those that only NOTIFY, and the pictures' paging token, which a change replaces with a random one.
 */
const NOTIFY_ONLY = new Set(['site_notify_change', 'pictures_notify_gallery']);
const PAGING_TOKEN = 'picture_paging_changed';

type Emptying = { tables: string[]; newToken: boolean } | null;
const emptyingOf = new WeakMap<Database, Promise<Emptying>>();

/**
 * How emptyAll may empty this database without TRUNCATE, or null when it may not: a TRUNCATE
 * trigger it does not know (it could write rows elsewhere), or no right to skip triggers and
 * foreign keys (session_replication_role needs a superuser; the tests' PGlite and CI's role are one).
 */
async function emptying(db: Database): Promise<Emptying> {
  const tables = await tableNames(db);
  const triggers = await sql<{ fn: string }>`
    select distinct p.proname as fn from pg_trigger t
    join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
    where not t.tgisinternal and (t.tgtype & 32) <> 0 and c.relnamespace = current_schema()::regnamespace`.execute(db);
  const functions = triggers.rows.map((row) => row.fn);
  if (functions.some((fn) => !NOTIFY_ONLY.has(fn) && fn !== PAGING_TOKEN)) return null;
  try {
    await db.transaction().execute((trx) => sql`set local session_replication_role = replica`.execute(trx));
  } catch {
    return null;
  }
  return { tables, newToken: functions.includes(PAGING_TOKEN) };
}

/**
 * The state truncateAll leaves, reached faster: every row deleted with triggers and foreign-key
 * checks off (session_replication_role = replica), the sequences that moved restarted, and what the
 * TRUNCATE triggers would have written (a new paging token; their NOTIFYs have no listener in
 * useTestServer's app). A TRUNCATE makes new files for every table and index: about 0.7 s for the
 * whole schema on PostgreSQL and 0.2 s on PGlite before every test, against a few ms for deletes of
 * a test's few rows. Falls back to truncateAll where the shortcut is not known to be the same.
 */
export async function emptyAll(db: Database): Promise<void> {
  let plan = emptyingOf.get(db);
  if (!plan) emptyingOf.set(db, (plan = emptying(db)));
  const how = await plan;
  if (!how) return truncateAll(db);
  await db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    for (const table of how.tables) await sql`delete from ${sql.table(table)}`.execute(trx);
    await sql`select setval(format('%I.%I', schemaname, sequencename), start_value, false)
      from pg_sequences where schemaname = current_schema() and last_value is not null`.execute(trx);
    await sql`set local session_replication_role = origin`.execute(trx);
    if (how.newToken) await sql`insert into picture_paging (token) values (gen_random_uuid())`.execute(trx);
  });
}

export type TestServer = { app: FastifyInstance; deps: AppDeps; db: Database };

/**
 * One app and database per describe block, emptied before every test. Returns a live view: read
 * its fields inside tests, not at collection time. `watchChanges` listens to the database's change
 * notifications as the server does (server/src/watch-changes.ts): its workers wake at an event's
 * commit instead of at their idle tick (a second for notifications), as in production.
 */
export function useTestServer(kind: TestDbKind, env: Record<string, string> = {}, opts: { watchChanges?: boolean } = {}): TestServer {
  const server = {} as TestServer;
  let handle: TestDb | undefined;
  let watching: Listening | undefined;
  beforeAll(async () => {
    handle = await createTestDb(kind);
    server.db = handle.db;
    // Listening on PostgreSQL needs the database's address, as the server has it from DATABASE_URL.
    server.deps = createDeps(testConfig({ ...(opts.watchChanges && handle.url ? { DATABASE_URL: handle.url } : {}), ...env }), handle.db);
    server.app = await buildApp(server.deps);
    await server.app.ready();
    if (opts.watchChanges) {
      watching = watchDatabaseChanges(handle, server.deps, { warn: () => {} });
      await watching.ready;
    }
  }, 60_000);
  afterAll(async () => {
    await watching?.stop();
    await server.app?.close();
    await handle?.close();
  });
  beforeEach(async () => {
    await emptyAll(server.db);
    server.deps.sessions.clearCache();
  });
  return server;
}

/** Creates an account of the given level directly (the sign-up rules are tested elsewhere). */
export async function createUser(deps: AppDeps, name: string, level: Level, password = TEST_PASSWORD): Promise<SessionUser> {
  const row = await insertUser(deps.db, { name, passwordHash: await deps.passwords.hash(password), level });
  return { id: row.id, name: row.name, level: row.level as Level };
}

/** A session cookie header value (`sid=...`) for an account of level N, created on the fly. */
export async function cookieFor(deps: AppDeps, level: Level, name = `user${level}`): Promise<string> {
  const user = await createUser(deps, name, level);
  const { token } = await deps.sessions.create(user.id);
  return `sid=${token}`;
}

/** A tRPC caller acting as the given account (or anonymous), without HTTP. */
export function callerFor(deps: AppDeps, user: SessionUser | null, sessionHash: string | null = null) {
  return appRouter.createCaller(createContextInner(deps, { user, sessionHash }));
}

/** A caller signed in through a browser (a real session row), as the account-changing procedures demand. */
export async function browserCallerFor(deps: AppDeps, user: SessionUser) {
  return callerFor(deps, user, (await deps.sessions.create(user.id)).tokenHash);
}

/** The `sid` cookie a response set, as a request header value. */
export function sessionCookie(res: LightMyRequestResponse): string | undefined {
  const cookie = res.cookies.find((c) => c.name === 'sid' && c.value !== '');
  return cookie ? `sid=${cookie.value}` : undefined;
}

export const tokenHashOf = (cookie: string) => hashToken(cookie.replace(/^sid=/, ''));

/** POST a JSON body the way the old client does. */
export function postJson(app: FastifyInstance, url: string, body?: unknown, cookie?: string) {
  return app.inject({
    method: 'POST',
    url,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(cookie ? { cookie } : {}),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/**
 * Makes the test server listen for real: PORT on an ephemeral port and the second listener
 * (EXTRA_PORT) on 8443, both on a random address of 127.0.0.0/8 so that parallel runs on one machine
 * do not meet on 8443. Returns a live view of the two base URLs.
 */
export function useListeningServer(s: TestServer): { main: string; extra: string } {
  const urls = { main: '', extra: '' };
  beforeAll(async () => {
    const host = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
    const [main, extra] = await listen(s.app, { port: 0, host, extraPort: 8443 });
    urls.main = main ?? '';
    urls.extra = extra ?? '';
  }, 60_000);
  return urls;
}

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * The start of a streamed answer (Server-Sent Events): status, headers and what arrived within
 * `waitMs` of the headers (or the end of the answer, if it ends), then the connection is closed.
 */
export function rawStreamStart(base: string, url: string, headers: Record<string, string> = {}, waitMs = 200): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(url, base), { method: 'GET', agent: false, headers }, (res) => {
      let text = '';
      const done = () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
        req.destroy();
      };
      const timer = setTimeout(done, waitMs);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', done);
    });
    req.on('error', reject);
    req.end();
  });
}

/** One request over a real socket, with any headers (Host and X-Forwarded-* included). */
export function rawRequest(base: string, method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(url, base), { method, agent: false, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The code and message a call is refused with (the TRPCError a caller gets, or the AppError a
 * service throws), or a failure of the test when the call succeeds.
 */
export async function refusal(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof TRPCError || error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the call to be refused');
}

/**
 * What is left in a media folder's temporary area: every file and folder but the resumable uploads'
 * own folder, which the server makes at start (RESUMABLE_FOLDER), and that folder's contents by name.
 */
export function leftInTemp(mediaDir: string): string[] {
  const temp = path.join(mediaDir, '.tmp');
  if (!fs.existsSync(temp)) return [];
  const resumable = path.join(temp, RESUMABLE_FOLDER);
  const inResumable = fs.existsSync(resumable) ? fs.readdirSync(resumable).map((name) => `${RESUMABLE_FOLDER}/${name}`) : [];
  return [...fs.readdirSync(temp).filter((name) => name !== RESUMABLE_FOLDER), ...inResumable];
}
