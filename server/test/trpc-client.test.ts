import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accessMessages, authMessages, DEFAULT_COLORS } from '@site/contracts';
import { buildApp, createDeps } from '../src/app.ts';
import type { AppRouter } from '../src/router.ts';
import { createTestDb, databases, testConfig, truncateAll, type TestDb } from './helpers.ts';
import type { FastifyInstance } from 'fastify';

/**
 * The real @trpc/client against the real, listening server: proves the hand-written /trpc mount is
 * wire-compatible with what the React client uses (batching, mutations, error shapes, status codes).
 */
describe.each(databases)('@trpc/client against /trpc (%s)', (kind) => {
  let handle: TestDb;
  let app: FastifyInstance;
  let baseUrl = '';
  let requests: { method: string; url: string; status: number }[] = [];

  beforeAll(async () => {
    handle = await createTestDb(kind);
    app = await buildApp(createDeps(testConfig(), handle.db));
    app.addHook('onResponse', async (req, reply) => {
      requests.push({ method: req.method, url: req.url, status: reply.statusCode });
    });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await handle.close();
  });
  beforeEach(async () => {
    await truncateAll(handle.db);
    requests = [];
  });

  /** A browser-like client: keeps the session cookie between calls. */
  function browser(link: 'batch' | 'single' = 'batch') {
    let cookie = '';
    const fetchWithCookies: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      if (cookie) headers.set('cookie', cookie);
      const res = await fetch(input, { ...init, headers });
      const set = res.headers.getSetCookie().find((c) => c.startsWith('sid='));
      if (set) cookie = set.split(';', 1)[0] ?? '';
      return res;
    };
    const url = `${baseUrl}/trpc`;
    const links = [link === 'batch' ? httpBatchLink({ url, fetch: fetchWithCookies }) : httpLink({ url, fetch: fetchWithCookies })];
    return createTRPCClient<AppRouter>({ links });
  }

  async function rejection(promise: Promise<unknown>): Promise<TRPCClientError<AppRouter>> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof TRPCClientError) return error as TRPCClientError<AppRouter>;
      throw error;
    }
    throw new Error('expected the call to fail');
  }

  it('signs up, batches two queries into one GET, and logs out', async () => {
    const client = browser();
    expect(await client.auth.signup.mutate({ name: 'Owner', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' })).toEqual({
      user: 'Owner',
      level: 3,
    });
    requests = [];
    const [status, colors] = await Promise.all([client.auth.status.query(), client.settings.colors.query()]);
    expect(status).toEqual({ user: 'Owner', level: 3 });
    expect(colors).toEqual(DEFAULT_COLORS);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', status: 200 });
    expect(requests[0]?.url).toMatch(/^\/trpc\/auth\.status,settings\.colors\?batch=1&input=/);

    expect(await client.auth.logout.mutate()).toEqual({ ok: true });
    expect(await client.auth.status.query()).toEqual({ user: null, level: 0 });
  });

  it('carries the error shape: code, httpStatus, path and preauth', async () => {
    const owner = browser();
    await owner.auth.signup.mutate({ name: 'Owner', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' });
    const guest = browser();
    await guest.auth.signup.mutate({ name: 'guest', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' });

    const pending = await rejection(browser().auth.login.mutate({ name: 'guest', password: 'walnut-table-9' }));
    expect(pending.message).toBe(authMessages.pending);
    expect(pending.data).toMatchObject({ code: 'FORBIDDEN', httpStatus: 403, path: 'auth.login', preauth: true });
    expect(pending.shape?.code).toBe(-32003);

    const wrong = await rejection(browser().auth.login.mutate({ name: 'Owner', password: 'nope' }));
    expect(wrong.message).toBe(authMessages.badCredentials);
    expect(wrong.data).toMatchObject({ code: 'UNAUTHORIZED', httpStatus: 401 });
    expect(wrong.data).not.toHaveProperty('preauth');
    expect(wrong.data).not.toHaveProperty('stack');

    const refused = await rejection(browser().admin.users.query());
    expect(refused.message).toBe(accessMessages.signInRequired);
    expect(refused.data?.code).toBe('UNAUTHORIZED');
  });

  it('reports validation failures as BAD_REQUEST with the first issue as the message', async () => {
    const client = browser();
    await client.auth.signup.mutate({ name: 'Owner', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' });
    const bad = await rejection(client.settings.saveColors.mutate({ ...DEFAULT_COLORS, menuColor: 'green' }));
    expect(bad.message).toBe('menuColor: Colours are written as #rrggbb');
    expect(bad.data).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
  });

  it('answers a mixed batch with 207 and each result in its place', async () => {
    const client = browser();
    requests = [];
    const [status, users] = await Promise.allSettled([client.auth.status.query(), client.admin.users.query()]);
    expect(status).toEqual({ status: 'fulfilled', value: { user: null, level: 0 } });
    expect(users.status).toBe('rejected');
    expect(requests).toEqual([expect.objectContaining({ status: 207 })]);
  });

  it('answers an all-failing batch with that status, and unknown procedures with 404', async () => {
    const res = await fetch(`${baseUrl}/trpc/admin.users,nope.nothing?batch=1&input=${encodeURIComponent('{}')}`);
    expect(res.status).toBe(207);
    const body = (await res.json()) as { error: { data: { httpStatus: number } } }[];
    expect(body.map((b) => b.error.data.httpStatus)).toEqual([401, 404]);
    const single = await fetch(`${baseUrl}/trpc/nope.nothing`);
    expect(single.status).toBe(404);
  });

  it('refuses a query over POST and a mutation over GET like tRPC does', async () => {
    const post = await fetch(`${baseUrl}/trpc/auth.status`, { method: 'POST' });
    expect(post.status).toBe(405);
    const get = await fetch(`${baseUrl}/trpc/auth.logout`);
    expect(get.status).toBe(405);
    expect(((await get.json()) as { error: { data: { code: string } } }).error.data.code).toBe('METHOD_NOT_SUPPORTED');
  });

  it('works without batching (httpLink) too', async () => {
    const client = browser('single');
    await client.auth.signup.mutate({ name: 'Owner', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' });
    expect(await client.settings.saveNavbarStyle.mutate({ clickToToggle: true })).toEqual({ clickToToggle: true });
    expect(await client.settings.navbarStyle.query()).toEqual({ clickToToggle: true });
    expect(await client.settings.splash.query()).toEqual({ display: true });
    expect(await client.settings.dismissSplash.mutate()).toEqual({ display: false });
    expect(await client.settings.splash.query()).toEqual({ display: false });
    const err = await rejection(client.auth.signup.mutate({ name: 'owner', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' }));
    expect(err.data).toMatchObject({ code: 'CONFLICT', httpStatus: 409 });
    expect(err.message).toBe(authMessages.nameTaken);
  });

  it('answers malformed input JSON with a 400-class error, never a 500', async () => {
    const res = await fetch(`${baseUrl}/trpc/auth.status?batch=1&input=%7Bnot-json`);
    expect(res.status).toBe(400);
    const badBatch = await fetch(`${baseUrl}/trpc/auth.status?batch=1&input=5`);
    expect(badBatch.status).toBe(400);
  });
});
