import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { accessMessages, type HttpRow } from '@site/contracts';
import { buildApp } from '../src/app.ts';
import { defineServerArea } from '../src/areas/area.ts';
import { createHttpRegistrar, UnlistedRouteError } from '../src/http/routes.ts';
import { router } from '../src/trpc/procedures.ts';
import { cookieFor, databases, useTestServer } from './helpers.ts';

const table: Record<string, HttpRow> = {
  'GET /test/family': { access: 2 },
  'GET /test/anyone': { access: 'public' },
  'POST /test/upload': { access: 1, multipart: true },
};

describe.each(databases)('HTTP routes under the permission table (%s)', (kind) => {
  const s = useTestServer(kind);

  it('enforces the row with the session of the request, before the handler runs', async () => {
    const app = Fastify();
    await app.register(fastifyCookie, { hook: false });
    const routes = createHttpRegistrar(app, s.deps, table);
    let ran = 0;
    routes.route('GET /test/family' as never, (_req, reply, { user }) => {
      ran++;
      return reply.send({ name: user?.name });
    });
    routes.route('GET /test/anyone' as never, (_req, reply, { user }) => reply.send({ name: user?.name ?? null }));
    routes.route('POST /test/upload' as never, (_req, reply) => reply.send({ ok: true }));
    routes.assertAllRegistered();
    await app.ready();
    const get = (url: string, cookie?: string) => app.inject({ url, headers: cookie ? { cookie } : {} });

    const anon = await get('/test/family');
    expect([anon.statusCode, anon.json()]).toEqual([401, { message: accessMessages.signInRequired }]);
    const pending = await get('/test/family', await cookieFor(s.deps, 0, 'pending'));
    expect([pending.statusCode, pending.json()]).toEqual([403, { message: accessMessages.levelTooLow, preauth: true }]);
    const friend = await get('/test/family', await cookieFor(s.deps, 1, 'friend'));
    expect([friend.statusCode, friend.json()]).toEqual([403, { message: accessMessages.levelTooLow }]);
    expect(ran).toBe(0);
    const family = await get('/test/family', await cookieFor(s.deps, 2, 'family'));
    expect([family.statusCode, family.json()]).toEqual([200, { name: 'family' }]);
    expect((await get('/test/anyone')).json()).toEqual({ name: null });
    await app.close();
  });

  it('refuses a route without a row, a route registered twice and a row without a route', async () => {
    const app = Fastify();
    const routes = createHttpRegistrar(app, s.deps, table);
    expect(() => routes.route('GET /test/unlisted' as never, () => null)).toThrow(UnlistedRouteError);
    routes.route('GET /test/family' as never, () => null);
    expect(() => routes.route('GET /test/family' as never, () => null)).toThrow(/registered twice/);
    expect(() => routes.assertAllRegistered()).toThrow(/GET \/test\/anyone, POST \/test\/upload/);
    await app.close();
  });

  it('does not start a server whose area registers a route the table does not name', async () => {
    const rogue = defineServerArea({
      router: router({}),
      http: (routes) => routes.route('GET /private/rogue' as never, (_req, reply) => reply.send('secret')),
    });
    await expect(buildApp(s.deps, { areas: { rogue } })).rejects.toThrow(UnlistedRouteError);
  });
});
