import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { accessMessages } from '@site/contracts';
import { buildApp, createDeps } from '../src/app.ts';
import { createTestDb, databases, postJson, sessionCookie, testConfig, useTestServer } from './helpers.ts';

const signupBody = { signupName: 'Owner', signupPass: 'secret-pass-123', signupConfPass: 'secret-pass-123' };

describe.each(databases)('protection (%s)', (kind) => {
  const s = useTestServer(kind, { BODY_LIMIT_BYTES: '4096' });

  it('refuses state-changing requests from another site, by Sec-Fetch-Site or Origin', async () => {
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ]) {
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/signup_attempt',
        headers: { 'content-type': 'application/json', host: 'localhost:8080', ...headers },
        payload: signupBody,
      });
      expect([res.statusCode, res.json()]).toEqual([403, { message: accessMessages.crossSite }]);
    }
    const trpc = await s.app.inject({
      method: 'POST',
      url: '/trpc/auth.logout',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(trpc.statusCode).toBe(403);
    expect(await s.db.selectFrom('users').selectAll().execute()).toEqual([]);
  });

  it('lets same-origin requests through', async () => {
    for (const headers of [
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      { origin: 'http://localhost:8080' },
    ]) {
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/login_status',
        headers: { host: 'localhost:8080', ...headers },
      });
      expect(res.statusCode).toBe(200);
    }
  });

  it('lets cross-site GETs through (links into the site keep working)', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/trpc/auth.status', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(res.statusCode).toBe(200);
  });

  it('refuses content types a plain HTML form can send', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain;charset=UTF-8']) {
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/signup_attempt',
        headers: { 'content-type': type },
        payload: 'signupName=Owner',
      });
      expect([res.statusCode, res.json()]).toEqual([415, { message: accessMessages.formContentType }]);
    }
    expect(await s.db.selectFrom('users').selectAll().execute()).toEqual([]);
  });

  it('refuses bodies over the limit with 413 and a message', async () => {
    const res = await postJson(s.app, '/api/signup_attempt', { ...signupBody, signupName: 'x'.repeat(5000) });
    expect(res.statusCode).toBe(413);
    expect(typeof res.json().message).toBe('string');
  });

  it.each(['/', '/healthz', '/api/nothing'])('sends security headers with a CSP the client works under (%s)', async (url) => {
    const res = await s.app.inject({ method: 'GET', url });
    const csp = String(res.headers['content-security-policy']);
    for (const part of [
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "media-src 'self' blob:",
      "frame-src 'self' https://www.youtube-nocookie.com",
      "connect-src 'self'",
      "font-src 'self' data:",
    ]) {
      expect(csp).toContain(part);
    }
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('answers /healthz with 200 while the database answers', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/healthz' });
    expect([res.statusCode, res.json()]).toEqual([200, { ok: true }]);
  });
});

describe('health and logs', () => {
  it('answers /healthz with 503 when the database does not answer', async () => {
    const handle = await createTestDb('pglite');
    const app = await buildApp(createDeps(testConfig(), handle.db));
    await handle.close();
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(503);
    await app.close();
  });

  it('never writes a password, token or cookie to the log', async () => {
    let log = '';
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        log += chunk.toString();
        done();
      },
    });
    const handle = await createTestDb('pglite');
    const app = await buildApp(createDeps(testConfig(), handle.db), { logger: { level: 'trace', stream } });
    app.get('/boom', async (req) => {
      req.log.info({ body: { password: 'secret-pass-123' }, req: { headers: req.headers } }, 'logged with secrets');
      throw new Error('boom');
    });
    const res = await postJson(app, '/api/signup_attempt', signupBody);
    const cookie = sessionCookie(res) ?? '';
    await postJson(app, '/api/login_attempt', { loginName: 'Owner', loginPass: 'secret-pass-123' }, cookie);
    const boom = await app.inject({ method: 'GET', url: '/boom', headers: { cookie } });
    expect([boom.statusCode, boom.json()]).toEqual([500, { message: accessMessages.internal }]);
    expect(log).toContain('logged with secrets');
    expect(log.split('\n').filter((line) => line.includes('secret-pass-123'))).toEqual([]);
    expect(log).not.toContain(cookie.slice(4));
    await app.close();
    await handle.close();
  });
});
