import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { accessMessages, ACCOUNT_LEVELS, authMessages, type Level } from '@site/contracts';
import { accountCommand } from '../../src/areas/auth/commands.ts';
import { createUser, databases, sessionCookie, TEST_PASSWORD, useTestServer } from '../helpers.ts';

type Auth = { bearer?: string; cookie?: string };
const headersOf = (auth: Auth) => ({ ...(auth.bearer !== undefined ? { authorization: `Bearer ${auth.bearer}` } : {}), ...(auth.cookie ? { cookie: auth.cookie } : {}) });

async function trpc(app: FastifyInstance, path: string, auth: Auth, input?: unknown, method: 'GET' | 'POST' = 'POST') {
  const res =
    method === 'GET'
      ? await app.inject({ method, url: `/trpc/${path}`, headers: headersOf(auth) })
      : await app.inject({ method, url: `/trpc/${path}`, headers: { ...headersOf(auth), 'content-type': 'application/json' }, payload: JSON.stringify(input ?? {}) });
  const json = res.json();
  return { status: res.statusCode, data: json.result?.data, message: json.error?.message as string | undefined, setCookie: res.headers['set-cookie'] };
}

async function api(app: FastifyInstance, url: string, auth: Auth, body?: unknown) {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { ...headersOf(auth), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, json: res.json() };
}

/** One call on /trpc and one on /api needing each level (0 needs any account). */
const needs: Record<Level, { trpc: [string, unknown?, 'GET'?]; api: [string, unknown?] }> = {
  0: { trpc: ['auth.devices', undefined, 'GET'], api: ['/api/login_status'] },
  1: { trpc: ['todo.list', undefined, 'GET'], api: ['/api/todo/get'] },
  2: { trpc: ['house.add', { task: 'Plant food', type: 'To Get' }], api: ['/api/todo/house/add', { task: 'Milk', type: 'To Get' }] },
  3: { trpc: ['admin.users', undefined, 'GET'], api: ['/api/admin/users'] },
};

describe.each(databases)('personal API tokens (%s)', (kind) => {
  const s = useTestServer(kind);

  /** A member of the level with a signed-in browser, and a token made from the account page. */
  async function member(level: Level) {
    await createUser(s.deps, `member${level}`, level);
    const login = await s.app.inject({ method: 'POST', url: '/trpc/auth.login', headers: { 'content-type': 'application/json' }, payload: { name: `member${level}`, password: TEST_PASSWORD } });
    // A pending account's login is refused, but it keeps its session (the account page works for it).
    const cookie = sessionCookie(login) ?? '';
    const made = await trpc(s.app, 'auth.createToken', { cookie }, { label: 'Home Assistant' });
    expect(made.status).toBe(200);
    return { cookie, token: made.data.token as string, id: made.data.id as number };
  }

  it.each(ACCOUNT_LEVELS)('acts at level %i on /trpc and /api, and is refused above it', async (level) => {
    const { token } = await member(level);
    expect(token).toMatch(/^site_[A-Za-z0-9_-]{43}$/);
    const status = await trpc(s.app, 'auth.status', { bearer: token }, undefined, 'GET');
    expect(status.data).toEqual({ user: `member${level}`, level });
    expect(status.setCookie).toBeUndefined();
    for (const needed of ACCOUNT_LEVELS) {
      const [path, input, method] = needs[needed].trpc;
      const viaTrpc = await trpc(s.app, path, { bearer: token }, input, method);
      const [url, body] = needs[needed].api;
      const viaApi = await api(s.app, url, { bearer: token }, body);
      const who = `level ${level} token on a level ${needed} call`;
      if (level >= needed) {
        expect(viaTrpc.status, `${who}: ${path}`).toBe(200);
        expect(viaApi.status, `${who}: ${url}`).toBe(200);
      } else {
        expect([viaTrpc.status, viaTrpc.message], `${who}: ${path}`).toEqual([403, accessMessages.levelTooLow]);
        expect([viaApi.status, viaApi.json.message], `${who}: ${url}`).toEqual([403, accessMessages.levelTooLow]);
      }
    }
  });

  it('follows a level change at once, never above the member', async () => {
    const { token } = await member(3);
    expect((await trpc(s.app, 'admin.users', { bearer: token }, undefined, 'GET')).status).toBe(200);
    await s.db.updateTable('users').set({ level: 1 }).where('name', '=', 'member3').execute();
    expect((await trpc(s.app, 'admin.users', { bearer: token }, undefined, 'GET')).status).toBe(403);
    expect((await api(s.app, '/api/todo/get', { bearer: token })).status).toBe(200);
  });

  it('never changes the password, nor makes or revokes tokens, nor signs out devices', async () => {
    const { token, id } = await member(3);
    const refusals = [
      await trpc(s.app, 'auth.changePassword', { bearer: token }, { currentPassword: TEST_PASSWORD, newPassword: 'a new secret here', confirmPassword: 'a new secret here' }),
      await trpc(s.app, 'auth.createToken', { bearer: token }, { label: 'More' }),
      await trpc(s.app, 'auth.revokeToken', { bearer: token }, { id }),
      await trpc(s.app, 'auth.signOutOthers', { bearer: token }),
    ];
    for (const r of refusals) expect([r.status, r.message]).toEqual([403, accessMessages.browserOnly]);
    expect((await s.db.selectFrom('api_tokens').select('id').execute()).length).toBe(1);
    const login = await s.app.inject({ method: 'POST', url: '/trpc/auth.login', headers: { 'content-type': 'application/json' }, payload: { name: 'member3', password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(200);
  });

  it("never leads to a password: an admin's token cannot make reset links nor change levels, the admin's browser can", async () => {
    const admin = await member(3);
    await createUser(s.deps, 'Pending', 0);
    const link = await trpc(s.app, 'admin.resetLink', { bearer: admin.token }, { name: 'member3' });
    expect([link.status, link.message, link.data]).toEqual([403, accessMessages.browserOnly, undefined]);
    const raise = await trpc(s.app, 'admin.setLevel', { bearer: admin.token }, { name: 'Pending', level: 3 });
    expect([raise.status, raise.message]).toEqual([403, accessMessages.browserOnly]);
    const viaApi = await api(s.app, '/api/admin/set_user_auth', { bearer: admin.token }, { username: 'Pending', authlevel: 3 });
    expect([viaApi.status, viaApi.json.message]).toEqual([403, accessMessages.browserOnly]);
    expect(await s.db.selectFrom('auth_reset_links').selectAll().execute()).toEqual([]);
    expect((await s.db.selectFrom('users').select('level').where('name', '=', 'Pending').executeTakeFirstOrThrow()).level).toBe(0);
    // Reading is still the token's: the admin's own browser makes the changes.
    expect((await trpc(s.app, 'admin.users', { bearer: admin.token }, undefined, 'GET')).status).toBe(200);
    expect((await trpc(s.app, 'admin.resetLink', { cookie: admin.cookie }, { name: 'member3' })).status).toBe(200);
    expect((await trpc(s.app, 'admin.setLevel', { cookie: admin.cookie }, { name: 'Pending', level: 1 })).status).toBe(200);
  });

  it('is only `Authorization: Bearer site_...`: any other Authorization header (Basic from a proxy) is ignored and the cookie used', async () => {
    const { cookie, token } = await member(1);
    const others = ['Basic ' + Buffer.from('family:door-password').toString('base64'), 'Bearer something-else', 'Digest username="x"', 'Bearer'];
    for (const authorization of others) {
      const res = await s.app.inject({ method: 'GET', url: '/trpc/auth.status', headers: { authorization, cookie } });
      expect([authorization, res.json().result?.data]).toEqual([authorization, { user: 'member1', level: 1 }]);
      // And a login behind that proxy sets its session cookie.
      const login = await s.app.inject({ method: 'POST', url: '/api/login_attempt', headers: { authorization, 'content-type': 'application/json' }, payload: { loginName: 'member1', loginPass: TEST_PASSWORD } });
      expect([login.statusCode, sessionCookie(login)]).toEqual([200, expect.stringMatching(/^sid=/)]);
    }
    // Without a cookie, Basic credentials are a signed-out visitor; a site token still acts as its member.
    expect((await trpc(s.app, 'todo.list', {}, undefined, 'GET')).status).toBe(401);
    const basic = await s.app.inject({ method: 'GET', url: '/trpc/todo.list', headers: { authorization: others[0]! } });
    expect(basic.statusCode).toBe(401);
    expect((await trpc(s.app, 'todo.list', { bearer: token }, undefined, 'GET')).status).toBe(200);
  });

  it('is anonymous once revoked, or when wrong, and is stored only as a hash', async () => {
    const { token, id, cookie } = await member(2);
    expect(JSON.stringify(await s.db.selectFrom('api_tokens').selectAll().execute())).not.toContain(token.slice(5));
    const listed = await trpc(s.app, 'auth.tokens', { cookie }, undefined, 'GET');
    expect(listed.data).toEqual([{ id, label: 'Home Assistant', createdAt: expect.any(String), lastUsedAt: null, scopes: null }]);
    expect((await trpc(s.app, 'todo.list', { bearer: token }, undefined, 'GET')).status).toBe(200);
    expect((await trpc(s.app, 'auth.tokens', { cookie }, undefined, 'GET')).data[0].lastUsedAt).toEqual(expect.any(String));

    for (const wrong of [`${token.slice(0, -1)}x`, 'site_nonsense', '', 'x'.repeat(5000), `site_${'x'.repeat(5000)}`]) {
      const viaTrpc = await trpc(s.app, 'todo.list', { bearer: wrong }, undefined, 'GET');
      expect([viaTrpc.status, viaTrpc.message], wrong.slice(0, 20)).toEqual([401, accessMessages.signInRequired]);
      expect((await api(s.app, '/api/todo/get', { bearer: wrong })).status).toBe(401);
    }
    // A wrong token is not rescued by a cookie sent along: the token decides.
    expect((await trpc(s.app, 'todo.list', { bearer: 'site_nonsense', cookie }, undefined, 'GET')).status).toBe(401);

    expect((await trpc(s.app, 'auth.revokeToken', { cookie }, { id })).data).toEqual({ ok: true });
    expect((await trpc(s.app, 'todo.list', { bearer: token }, undefined, 'GET')).status).toBe(401);
    expect((await api(s.app, '/api/todo/get', { bearer: token })).status).toBe(401);
    expect((await trpc(s.app, 'auth.revokeToken', { cookie }, { id })).message).toBe(authMessages.unknownToken);
  });

  it("cannot revoke another member's token", async () => {
    const mine = await member(1);
    const theirs = await member(2);
    expect((await trpc(s.app, 'auth.revokeToken', { cookie: mine.cookie }, { id: theirs.id })).message).toBe(authMessages.unknownToken);
    expect((await trpc(s.app, 'todo.list', { bearer: theirs.token }, undefined, 'GET')).status).toBe(200);
  });

  it('is made by `npm run user -- token NAME --label L`, printed as the last word', async () => {
    await createUser(s.deps, 'Mia', 1);
    const lines = await accountCommand(s.deps, 'token', ['mia', '--label', 'Garden sensor']);
    const token = lines.at(-1)?.split(' ').at(-1) ?? '';
    expect((await trpc(s.app, 'auth.status', { bearer: token }, undefined, 'GET')).data).toEqual({ user: 'Mia', level: 1 });
    expect(await s.db.selectFrom('api_tokens').select('label').execute()).toEqual([{ label: 'Garden sensor' }]);
    await expect(accountCommand(s.deps, 'token', [])).rejects.toThrow('Usage: npm run user -- token NAME [--label LABEL]');
  });
});
