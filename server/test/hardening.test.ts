import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { authMessages, textMessages } from '@site/contracts';
import { nameKey } from '../src/identity/users.repository.ts';
import { parseTrustProxy } from '../src/config.ts';
import { cookieFor, createUser, databases, postJson, TEST_PASSWORD, useTestServer } from './helpers.ts';

const json = { 'content-type': 'application/json' };
const signup = (name: string, pass = TEST_PASSWORD, conf = pass) => ({ signupName: name, signupPass: pass, signupConfPass: conf });

/** A login from a given address, with an optional Cookie header. */
const loginFrom = (s: { app: FastifyInstance }, address: string, name: string, password: string, cookie?: string) =>
  s.app.inject({
    method: 'POST',
    url: '/api/login_attempt',
    remoteAddress: address,
    headers: { ...json, ...(cookie ? { cookie } : {}) },
    payload: { loginName: name, loginPass: password },
  });

describe.each(databases)('hostile input and parallel attacks (%s)', (kind) => {
  const s = useTestServer(kind, { SIGNUP_MAX_PER_ADDRESS: '3' });

  it('holds the login limit against 100 parallel wrong logins for one account, from 100 addresses', async () => {
    await createUser(s.deps, 'Owner', 3);
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => loginFrom(s, `10.1.${i >> 8}.${i & 255}`, 'owner', `wrong-${i}`)));
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(10);
    expect(codes.filter((c) => c !== 401 && c !== 429)).toEqual([]);
    const right = await loginFrom(s, '10.9.9.9', 'Owner', TEST_PASSWORD);
    expect([right.statusCode, right.json()]).toEqual([429, { message: authMessages.throttled }]);
  });

  it('holds the per-address limit against parallel logins for many accounts', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => loginFrom(s, '10.2.0.1', `name${i}`, 'wrong')));
    expect(answers.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(10);
    expect(answers.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(50);
  });

  it('refuses a tRPC batch carrying more than one login or sign-up, whole, with a readable 400', async () => {
    await createUser(s.deps, 'Owner', 3);
    const paths = Array.from({ length: 32 }, () => 'auth.login').join(',');
    const input = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [String(i), { name: 'Owner', password: i === 31 ? TEST_PASSWORD : `w${i}` }]));
    const res = await s.app.inject({ method: 'POST', url: `/trpc/${paths}?batch=1`, headers: json, payload: input });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(authMessages.oneLoginPerBatch);
    expect(res.headers['set-cookie']).toBeUndefined();
    const mixed = await s.app.inject({
      method: 'POST',
      url: '/trpc/auth.signup,auth.login?batch=1',
      headers: json,
      payload: { 0: { name: 'x', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' }, 1: { name: 'Owner', password: TEST_PASSWORD } },
    });
    expect(mixed.statusCode).toBe(400);
    expect(await s.db.selectFrom('users').select('name').execute()).toEqual([{ name: 'Owner' }]);
    // One login in a batch is fine (the batch link may group it with queries).
    const one = await s.app.inject({ method: 'POST', url: '/trpc/auth.login?batch=1', headers: json, payload: { 0: { name: 'Owner', password: TEST_PASSWORD } } });
    expect(one.statusCode).toBe(200);
  });

  it('answers NUL and control characters with a readable 400 on /api and tRPC, never 500', async () => {
    const admin = await cookieFor(s.deps, 3, 'Boss');
    const cases: [string, unknown, string | undefined][] = [
      ['/api/login_attempt', { loginName: 'a\u0000b', loginPass: 'x' }, undefined],
      ['/api/login_attempt', { loginName: 'ab', loginPass: 'x\u0000' }, undefined],
      ['/api/signup_attempt', signup('a\u0000b'), undefined],
      ['/api/signup_attempt', signup('a\u001bb'), undefined],
      ['/api/admin/set_user_auth', { username: 'a\u0000b', authlevel: 1 }, admin],
    ];
    for (const [url, body, cookie] of cases) {
      const res = await postJson(s.app, url, body, cookie);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toMatch(/may not contain control characters$/);
    }
    const trpc = await s.app.inject({ method: 'POST', url: '/trpc/auth.login', headers: json, payload: { name: 'a\u0000b', password: 'x' } });
    expect(trpc.statusCode).toBe(400);
    expect(trpc.json().error.message).toBe(textMessages.control('Username'));
    const setLevel = await s.app.inject({
      method: 'POST',
      url: '/trpc/admin.setLevel',
      headers: { ...json, cookie: admin },
      payload: { name: '\u0000', level: 1 },
    });
    expect(setLevel.statusCode).toBe(400);
  });

  it('caps name fields before anything else looks at them, and keeps limiter keys hashed and bounded', async () => {
    const huge = await postJson(s.app, '/api/login_attempt', { loginName: 'n'.repeat(200_000), loginPass: 'x' });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().message).toMatch(/^Username may be at most/);
    for (const name of ['a'.repeat(256), 'b'.repeat(100)]) await postJson(s.app, '/api/login_attempt', { loginName: name, loginPass: 'x' });
    const keys = await s.db.selectFrom('auth_limits').select('key').execute();
    expect(keys.length).toBeGreaterThan(0);
    for (const { key } of keys) expect(key).toMatch(/^[0-9a-f]{64}$/);
    // Old counters are forgotten by the sweep.
    await s.db.updateTable('auth_limits').set({ window_ends: new Date(Date.now() - 1000) }).execute();
    await s.deps.limits.sweep();
    expect(await s.db.selectFrom('auth_limits').selectAll().execute()).toEqual([]);
  });

  it('limits sign-ups per address', async () => {
    for (let i = 0; i < 3; i++) expect((await postJson(s.app, '/api/signup_attempt', signup(`user${i}`))).statusCode).toBe(200);
    const fourth = await postJson(s.app, '/api/signup_attempt', signup('user3'));
    expect([fourth.statusCode, fourth.json()]).toEqual([429, { message: authMessages.signupThrottled }]);
    const elsewhere = await s.app.inject({ method: 'POST', url: '/api/signup_attempt', remoteAddress: '10.3.0.1', headers: json, payload: signup('user3') });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('refuses look-alike names, short and common passwords, after the spec checks', async () => {
    const cases: [Record<string, string>, number, string][] = [
      [signup('', 'a', 'b'), 400, authMessages.nameEmpty],
      [signup('n', 'a', 'b'), 400, authMessages.passwordsDiffer],
      [signup('n', '', ''), 400, authMessages.passwordEmpty],
      [signup('\u200badmin'), 400, authMessages.nameInvisible],
      [signup('ad\u202emin'), 400, authMessages.nameInvisible],
      [signup('line\nbreak'), 400, textMessages.control('Username')],
      [signup('newname', 'short7!'), 400, authMessages.passwordTooShort],
      [signup('newname', 'Password123'), 400, authMessages.passwordTooCommon],
      [signup('longname1', 'LongName1'), 400, authMessages.passwordIsName],
    ];
    for (const [body, code, message] of cases) {
      const res = await postJson(s.app, '/api/signup_attempt', body);
      expect([res.statusCode, res.json()], JSON.stringify(body)).toEqual([code, { message }]);
    }
    await postJson(s.app, '/api/signup_attempt', signup('Admin'));
    const taken = await postJson(s.app, '/api/signup_attempt', signup('ADMIN'));
    expect([taken.statusCode, taken.json()]).toEqual([409, { message: authMessages.nameTaken }]);
    // Names are stored in NFC, and the key ignores invisible characters and case.
    const decomposed = await postJson(s.app, '/api/signup_attempt', signup('Jose\u0301'));
    expect(decomposed.json().user).toBe('Jos\u00e9');
    expect(nameKey('A\u200bdmin')).toBe(nameKey('admin'));
    expect(nameKey('Jose\u0301')).toBe(nameKey('JOS\u00c9'));
  });

  it('lets a browser that signed in before keep its own allowance while others lock the account out (device cookie)', async () => {
    await createUser(s.deps, 'Owner', 3);
    const first = await loginFrom(s, '10.4.0.1', 'Owner', TEST_PASSWORD);
    const device = first.cookies.find((c) => c.name === 'did');
    expect(device?.httpOnly).toBe(true);
    const deviceCookie = `did=${device?.value ?? ''}`;
    // An attacker on the same address (and elsewhere) fails for the owner and for other names.
    for (let i = 0; i < 12; i++) await loginFrom(s, '10.4.0.1', i < 10 ? 'Owner' : `other${i}`, 'wrong');
    expect((await loginFrom(s, '10.4.0.1', 'Owner', TEST_PASSWORD)).statusCode).toBe(429);
    // The owner's browser still gets in, from the same address.
    const owner = await loginFrom(s, '10.4.0.1', 'Owner', TEST_PASSWORD, deviceCookie);
    expect(owner.statusCode).toBe(200);
    // A device cookie for another account does not lift the lock on this one.
    await createUser(s.deps, 'Other', 1);
    const otherDevice = (await loginFrom(s, '10.4.0.2', 'Other', TEST_PASSWORD)).cookies.find((c) => c.name === 'did');
    expect((await loginFrom(s, '10.4.0.2', 'Owner', TEST_PASSWORD, `did=${otherDevice?.value ?? ''}`)).statusCode).toBe(429);
    // The device has a limit of its own.
    for (let i = 0; i < 10; i++) await loginFrom(s, '10.4.0.1', 'Owner', 'wrong', deviceCookie);
    expect((await loginFrom(s, '10.4.0.1', 'Owner', TEST_PASSWORD, deviceCookie)).statusCode).toBe(429);
  });

  it('refuses Host names that are not an IP literal, localhost or PUBLIC_HOSTS (DNS rebinding)', async () => {
    const rebinding = await s.app.inject({
      method: 'POST',
      url: '/api/signup_attempt',
      headers: { ...json, host: 'attacker.example:8080', origin: 'http://attacker.example:8080' },
      payload: signup('Owner'),
    });
    expect(rebinding.statusCode).toBe(421);
    expect(rebinding.json().message).toMatch(/PUBLIC_HOSTS/);
    expect(await s.db.selectFrom('users').selectAll().execute()).toEqual([]);
    for (const host of ['localhost:8080', '127.0.0.1:8080', '[::1]:8080', '192.168.1.20', 'app.localhost']) {
      const res = await s.app.inject({ method: 'GET', url: '/healthz', headers: { host } });
      expect(res.statusCode, host).toBe(200);
    }
  });

  it('sends HSTS only over https, and no-store on API answers', async () => {
    const plain = await s.app.inject({ method: 'GET', url: '/healthz' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const cookie = await cookieFor(s.deps, 1);
    for (const res of [
      await postJson(s.app, '/api/login_status', undefined, cookie),
      await s.app.inject({ method: 'GET', url: '/trpc/auth.status', headers: { cookie } }),
      await s.app.inject({ method: 'GET', url: '/trpc/auth.status,settings.colors?batch=1', headers: { cookie } }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});

describe.each(databases)('behind a proxy (%s)', (kind) => {
  const s = useTestServer(kind, { TRUST_PROXY: '10.5.0.1', PUBLIC_HOSTS: 'example.org,.example.net' });

  it('believes X-Forwarded-For only from the named proxy', async () => {
    const from = (address: string, forwarded: string, name: string) =>
      s.app.inject({
        method: 'POST',
        url: '/api/login_attempt',
        remoteAddress: address,
        headers: { ...json, 'x-forwarded-for': forwarded },
        payload: { loginName: name, loginPass: 'wrong' },
      });
    // A client talking directly cannot dodge the per-address limit with a new header each time.
    for (let i = 0; i < 10; i++) expect((await from('10.5.0.99', `1.2.3.${i}`, `n${i}`)).statusCode).toBe(401);
    expect((await from('10.5.0.99', '1.2.3.200', 'fresh')).statusCode).toBe(429);
    // Through the proxy, each forwarded client has its own count.
    for (let i = 0; i < 12; i++) expect((await from('10.5.0.1', `1.2.4.${i}`, `m${i}`)).statusCode).toBe(401);
  });

  it('sends HSTS over https as the proxy reports it, and answers to PUBLIC_HOSTS', async () => {
    const https = await s.app.inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: '10.5.0.1',
      headers: { host: 'example.org', 'x-forwarded-proto': 'https' },
    });
    expect(https.statusCode).toBe(200);
    expect(https.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    for (const [host, code] of [
      ['example.org', 200],
      ['www.example.net', 200],
      ['example.net', 200],
      ['www.example.org', 421],
      ['example.org.evil.com', 421],
    ] as const) {
      expect((await s.app.inject({ method: 'GET', url: '/healthz', headers: { host } })).statusCode, host).toBe(code);
    }
  });

  it('reads TRUST_PROXY in Fastify forms', () => {
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
    expect(parseTrustProxy('loopback')).toEqual(['loopback']);
    expect(parseTrustProxy('evil.example')).toBeNull();
  });
});

describe('slow clients', () => {
  const s = useTestServer('pglite', { REQUEST_TIMEOUT_SECONDS: '2', IDLE_TIMEOUT_SECONDS: '2' });

  /** Opens a socket, sends `head`, then one byte every `everyMs`; resolves with what came back once it closes. */
  async function trickle(head: string, everyMs: number): Promise<{ answer: string; bytesSent: number }> {
    const address = await s.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const net = await import('node:net');
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let answer = '';
      let bytesSent = 0;
      socket.on('connect', () => {
        socket.write(head);
        const timer = setInterval(() => {
          if (socket.destroyed || socket.writableEnded) return clearInterval(timer);
          socket.write('a');
          bytesSent++;
        }, everyMs);
        socket.on('close', () => {
          clearInterval(timer);
          resolve({ answer, bytesSent });
        });
      });
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('error', () => {});
    });
  }

  it('closes a connection whose body trickles in slower than the request time limit allows', async () => {
    const head = 'POST /api/login_attempt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n';
    // One byte every 300 ms never trips the idle limit; the whole-request limit (2 s) closes it.
    const { answer, bytesSent } = await trickle(head, 300);
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    expect(bytesSent).toBeLessThan(100);
    await s.app.close();
  }, 60_000);
});
