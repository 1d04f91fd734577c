import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDeps } from '../src/app.ts';
import * as picturesRepo from '../src/areas/pictures/pictures.repository.ts';
import { spawnServer, type SpawnedServer } from '../src/testing/spawn-server.ts';
import { createTestDb, createUser, testConfig, TEST_PASSWORD, type TestDb } from './helpers.ts';
import { pictureRow } from './pictures/pictures.fixtures.ts';

/**
 * Two server processes on one PostgreSQL (how the site outgrows one process or machine): the login
 * limits are shared, and a level change or logout through one reaches the other as soon as the
 * database's notification does (session-events.ts). That is milliseconds, not zero: the notification
 * travels to the other process on its own connection, so a request sent to it in the same instant
 * can still be answered from its cache. The checks wait for it, bounded by NOTIFY_BOUND_MS.
 * Needs the built server (`npm run build -w @site/server`) and TEST_DATABASE_URL.
 */
const NOTIFY_BOUND_MS = 2_000;
describe.runIf(process.env.TEST_DATABASE_URL)('two instances on one PostgreSQL', () => {
  let db: TestDb;
  let a: SpawnedServer;
  let b: SpawnedServer;

  beforeAll(async () => {
    db = await createTestDb('postgres');
    const env = { DATABASE_URL: db.url ?? '', LOGIN_MAX_FAILURES: '6' };
    [a, b] = await Promise.all([spawnServer({ env }), spawnServer({ env })]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.close();
  });

  const post = (server: SpawnedServer, path: string, body?: unknown, cookie?: string) =>
    fetch(server.url + path, {
      method: 'POST',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const status = async (server: SpawnedServer, cookie: string) => (await post(server, '/api/login_status', undefined, cookie)).json();

  /** Asks `server` until the status matches, at most NOTIFY_BOUND_MS. */
  const statusBecomes = (server: SpawnedServer, cookie: string, expected: Record<string, unknown>) =>
    vi.waitFor(async () => expect(await status(server, cookie)).toMatchObject(expected), { timeout: NOTIFY_BOUND_MS, interval: 10 });

  it('applies a level change and a logout made through one instance to the other within the notification delay', async () => {
    const deps = createDeps(testConfig(), db.db);
    await createUser(deps, 'Owner', 3);
    await createUser(deps, 'Friend', 1);
    const owner = `sid=${(await deps.sessions.create(1)).token}`;
    const login = await post(b, '/api/login_attempt', { loginName: 'Friend', loginPass: TEST_PASSWORD });
    expect(login.status).toBe(200);
    const friend = (login.headers.getSetCookie().find((c) => c.startsWith('sid=')) ?? '').split(';')[0] ?? '';
    // B has the session and the account cached now.
    expect(await status(b, friend)).toMatchObject({ user: 'Friend', authenticated: 1 });
    expect(await status(b, friend)).toMatchObject({ user: 'Friend', authenticated: 1 });

    const raised = await post(a, '/api/admin/set_user_auth', { username: 'Friend', authlevel: 2 }, owner);
    expect(raised.status).toBe(200);
    await statusBecomes(b, friend, { user: 'Friend', authenticated: 2 });

    expect((await post(a, '/api/logout', undefined, friend)).status).toBe(200);
    await statusBecomes(b, friend, { user: null });
  }, 60_000);

  it("forgets a gallery page it keeps when a picture changes through the other instance", async () => {
    const deps = createDeps(testConfig(), db.db);
    const owner = await createUser(deps, 'Keeper', 3);
    const cookie = `sid=${(await deps.sessions.create(owner.id)).token}`;
    const picture = await picturesRepo.insertPicture(db.db, pictureRow(owner, 'before', [2024, 5, 1]));
    const input = encodeURIComponent(JSON.stringify({ 0: { type: 24, index: 0 } }));
    const captions = async (server: SpawnedServer) => {
      const res = await fetch(`${server.url}/trpc/pictures.page?batch=1&input=${input}`, { headers: { cookie } });
      const [body] = (await res.json()) as [{ result: { data: { pictures: { desc: string }[] } } }];
      return body.result.data.pictures.map((p) => p.desc);
    };
    await vi.waitFor(async () => expect(await captions(b)).toEqual(['before']), { timeout: NOTIFY_BOUND_MS, interval: 10 });
    expect(await captions(b)).toEqual(['before']);

    const update = await fetch(`${a.url}/trpc/pictures.update`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ id: picture.id, caption: 'after', date: '2024-05-01' }),
    });
    expect(update.status, await update.text()).toBe(200);
    expect(await captions(a)).toEqual(['after']);
    await vi.waitFor(async () => expect(await captions(b)).toEqual(['after']), { timeout: NOTIFY_BOUND_MS, interval: 10 });
  }, 60_000);

  it('tells a page open on one instance of a house change made through the other, within a second', async () => {
    const deps = createDeps(testConfig(), db.db);
    const family = await createUser(deps, 'Family', 2);
    const cookie = `sid=${(await deps.sessions.create(family.id)).token}`;
    // A page (signed out) listening on A.
    const controller = new AbortController();
    const stream = await fetch(`${a.url}/events`, { signal: controller.signal });
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = (stream.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${needle}: ${text}`);
        text += value;
      }
    };
    await until('event: ready');
    const started = performance.now();
    const added = await post(b, '/api/todo/house/add', { task: 'milk', type: 'To Get' }, cookie);
    expect(added.status).toBe(200);
    await until('event: change\ndata: {"area":"house"}');
    expect(performance.now() - started).toBeLessThan(1_000);
    controller.abort();
  }, 60_000);

  it('counts login failures across instances', async () => {
    const deps = createDeps(testConfig(), db.db);
    await createUser(deps, 'Target', 1);
    for (let i = 0; i < 6; i++) {
      const res = await post(i % 2 ? a : b, '/api/login_attempt', { loginName: 'Target', loginPass: `wrong${i}` });
      expect(res.status).toBe(401);
    }
    for (const server of [a, b]) {
      const res = await post(server, '/api/login_attempt', { loginName: 'Target', loginPass: TEST_PASSWORD });
      expect(res.status).toBe(429);
    }
  }, 60_000);
});
