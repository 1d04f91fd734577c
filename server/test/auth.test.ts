import { describe, expect, it } from 'vitest';
import { authMessages, NAME_MAX, PASSWORD_MAX } from '@site/contracts';
import { databases, postJson, sessionCookie, TEST_PASSWORD, tokenHashOf, useTestServer } from './helpers.ts';

const signup = (name: string, pass = TEST_PASSWORD, conf = pass) => ({ signupName: name, signupPass: pass, signupConfPass: conf });

describe.each(databases)('accounts over HTTP (%s)', (kind) => {
  const s = useTestServer(kind);

  const status = async (cookie?: string) => (await postJson(s.app, '/api/login_status', undefined, cookie)).json();

  it('makes the first account the owner and signs it in with a safe cookie', async () => {
    const res = await postJson(s.app, '/api/signup_attempt', signup('Owner'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: 'Owner', authenticated: 3, authentication: 3 });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^sid=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).toContain(`Max-Age=${30 * 24 * 3600}`);
    expect(setCookie).not.toContain('Secure');
    expect(await status(sessionCookie(res))).toEqual({ user: 'Owner', authenticated: 3, authentication: 3 });
  });

  it('stores only the hash of the session token', async () => {
    const res = await postJson(s.app, '/api/signup_attempt', signup('Owner'));
    const cookie = sessionCookie(res) ?? '';
    const rows = await s.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows).toEqual([{ token_hash: tokenHashOf(cookie) }]);
  });

  it('starts every later account at level 0, signed in, and refuses its login with preauth', async () => {
    await postJson(s.app, '/api/signup_attempt', signup('Owner'));
    const res = await postJson(s.app, '/api/signup_attempt', signup('guest'));
    expect(res.json()).toEqual({ user: 'guest', authenticated: 0, authentication: 0 });
    expect(await status(sessionCookie(res))).toMatchObject({ user: 'guest', authenticated: 0 });

    const login = await postJson(s.app, '/api/login_attempt', { loginName: 'guest', loginPass: TEST_PASSWORD });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toEqual({ message: authMessages.pending, preauth: true });
    // The pending account keeps a session, so /preauth can show it and offer Logout.
    expect(await status(sessionCookie(login))).toMatchObject({ user: 'guest', authenticated: 0 });
  });

  it('checks sign-up input in the spec order, then length, then a taken name ignoring case', async () => {
    const cases: [Record<string, string>, number, string][] = [
      [signup('', '', 'x'), 400, authMessages.nameEmpty],
      [signup('  ', 'a', 'a'), 400, authMessages.nameEmpty],
      [signup('n', 'a', 'b'), 400, authMessages.passwordsDiffer],
      [signup('n', '', ''), 400, authMessages.passwordEmpty],
      [signup('n'.repeat(NAME_MAX + 1)), 400, authMessages.nameTooLong],
      [signup('n', 'p'.repeat(PASSWORD_MAX + 1)), 400, authMessages.passwordTooLong],
    ];
    for (const [body, code, message] of cases) {
      const res = await postJson(s.app, '/api/signup_attempt', body);
      expect([res.statusCode, res.json()]).toEqual([code, { message }]);
    }
    await postJson(s.app, '/api/signup_attempt', signup('Alice'));
    const taken = await postJson(s.app, '/api/signup_attempt', signup('aLICE'));
    expect([taken.statusCode, taken.json()]).toEqual([409, { message: authMessages.nameTaken }]);
    expect(await s.db.selectFrom('users').select('name').execute()).toEqual([{ name: 'Alice' }]);
  });

  it('answers a missing field or a wrong type with 400 and a readable message', async () => {
    const res = await postJson(s.app, '/api/signup_attempt', { signupName: 'x', signupPass: 3 });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^password: /);
    expect(await s.db.selectFrom('users').selectAll().execute()).toEqual([]);
  });

  it('logs in with the right password only, with one message for any failure', async () => {
    await postJson(s.app, '/api/signup_attempt', signup('Owner'));
    const wrong = await postJson(s.app, '/api/login_attempt', { loginName: 'Owner', loginPass: 'nope' });
    expect([wrong.statusCode, wrong.json()]).toEqual([401, { message: authMessages.badCredentials }]);
    const unknown = await postJson(s.app, '/api/login_attempt', { loginName: 'ghost', loginPass: 'nope' });
    expect([unknown.statusCode, unknown.json()]).toEqual([401, { message: authMessages.badCredentials }]);
    const ok = await postJson(s.app, '/api/login_attempt', { loginName: 'owner', loginPass: TEST_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ user: 'Owner', authenticated: 3, authentication: 3 });
  });

  it('creates a new session on every login and ends the one the browser had', async () => {
    const first = sessionCookie(await postJson(s.app, '/api/signup_attempt', signup('Owner'))) ?? '';
    const second = sessionCookie(
      await postJson(s.app, '/api/login_attempt', { loginName: 'Owner', loginPass: TEST_PASSWORD }, first),
    );
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(await status(first)).toMatchObject({ user: null });
    expect(await status(second)).toMatchObject({ user: 'Owner' });
  });

  it('logout ends the session on the server, through /api/logout and auth.logout', async () => {
    const cookie = sessionCookie(await postJson(s.app, '/api/signup_attempt', signup('Owner'))) ?? '';
    const out = await postJson(s.app, '/api/logout', undefined, cookie);
    expect(out.json()).toEqual({ ok: true });
    expect(String(out.headers['set-cookie'])).toMatch(/^sid=;/);
    expect(await status(cookie)).toEqual({ user: null, authenticated: 0, authentication: 0 });
    expect(await s.db.selectFrom('sessions').selectAll().execute()).toEqual([]);

    const again = sessionCookie(await postJson(s.app, '/api/login_attempt', { loginName: 'Owner', loginPass: TEST_PASSWORD })) ?? '';
    const trpc = await s.app.inject({ method: 'POST', url: '/trpc/auth.logout', headers: { cookie: again } });
    expect(trpc.json()).toEqual({ result: { data: { ok: true } } });
    expect(await status(again)).toMatchObject({ user: null });
  });

  it('treats an unknown or malformed cookie as anonymous and clears it', async () => {
    const res = await postJson(s.app, '/api/login_status', undefined, 'sid=' + 'A'.repeat(43));
    expect(res.json()).toEqual({ user: null, authenticated: 0, authentication: 0 });
    expect(String(res.headers['set-cookie'])).toMatch(/^sid=;/);
    expect((await postJson(s.app, '/api/login_status', undefined, 'sid=%%%')).statusCode).toBe(200);
  });

  it('throttles logins per account after 10 failures in the window, even with the right password', async () => {
    await postJson(s.app, '/api/signup_attempt', signup('Owner'));
    for (let i = 0; i < 10; i++) {
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/login_attempt',
        remoteAddress: `10.0.0.${i}`,
        headers: { 'content-type': 'application/json' },
        payload: { loginName: 'owner', loginPass: 'wrong' },
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await postJson(s.app, '/api/login_attempt', { loginName: 'Owner', loginPass: TEST_PASSWORD });
    expect([blocked.statusCode, blocked.json()]).toEqual([429, { message: authMessages.throttled }]);
  });

  it('throttles logins per address across account names', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await postJson(s.app, '/api/login_attempt', { loginName: `name${i}`, loginPass: 'wrong' });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await postJson(s.app, '/api/login_attempt', { loginName: 'other', loginPass: 'x' });
    expect(blocked.statusCode).toBe(429);
    const elsewhere = await s.app.inject({
      method: 'POST',
      url: '/api/login_attempt',
      remoteAddress: '10.9.9.9',
      headers: { 'content-type': 'application/json' },
      payload: { loginName: 'other', loginPass: 'x' },
    });
    expect(elsewhere.statusCode).toBe(401);
  });

  it('applies a level change to the very next request of that account', async () => {
    const owner = sessionCookie(await postJson(s.app, '/api/signup_attempt', signup('Owner'))) ?? '';
    const guest = sessionCookie(await postJson(s.app, '/api/signup_attempt', signup('guest'))) ?? '';
    expect(await status(guest)).toMatchObject({ authenticated: 0 });
    const set = await postJson(s.app, '/api/admin/set_user_auth', { username: 'guest', authlevel: '2' }, owner);
    expect(set.json()).toEqual({ name: 'guest', authentication: 2 });
    expect(await status(guest)).toMatchObject({ user: 'guest', authenticated: 2, authentication: 2 });
    const login = await postJson(s.app, '/api/login_attempt', { loginName: 'guest', loginPass: TEST_PASSWORD });
    expect(login.json()).toEqual({ user: 'guest', authenticated: 2, authentication: 2 });
  });
});

describe.each(databases)('cookies behind HTTPS (%s)', (kind) => {
  const s = useTestServer(kind, { TRUST_PROXY: 'true', HOST: '127.0.0.1' });
  it('marks the cookie Secure when the request came over https', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/signup_attempt',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      payload: signup('Owner'),
    });
    expect(String(res.headers['set-cookie'])).toContain('Secure');
  });
});
