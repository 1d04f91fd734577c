import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { authMessages } from '@site/contracts';
import { isLoopback, setupCode } from '../../src/areas/auth/setup-code.ts';
import { requestSetupCode, startControlChannel } from '../../src/local-commands/control.ts';
import { countUsers } from '../../src/identity/users.repository.ts';
import { databases, TEST_PASSWORD, useTestServer, type TestServer } from '../helpers.ts';

const form = (name: string, extra: Record<string, string> = {}) => ({
  signupName: name,
  signupPass: TEST_PASSWORD,
  signupConfPass: TEST_PASSWORD,
  ...extra,
});

/** A sign-up over /api from a client address (what TRUST_PROXY resolves it to is the server's business). */
const signupFrom = (s: TestServer, remoteAddress: string, body: object, headers: Record<string, string> = {}) =>
  s.app.inject({
    method: 'POST',
    url: '/api/signup_attempt',
    remoteAddress,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });

describe('the server machine', () => {
  it('is every loopback address, IPv4-mapped ones included, and nothing else', () => {
    for (const ip of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect([ip, isLoopback(ip)]).toEqual([ip, true]);
    for (const ip of ['192.168.1.50', '10.0.0.1', '::ffff:192.168.1.50', 'fe80::1', '0.0.0.0', 'nonsense']) expect([ip, isLoopback(ip)]).toEqual([ip, false]);
  });
});

describe.each(databases)('the first account (%s)', (kind) => {
  const s = useTestServer(kind);

  it('becomes the owner at once when created from the server machine itself', async () => {
    const res = await signupFrom(s, '127.0.0.1', form('Owner'));
    expect([res.statusCode, res.json().authenticated]).toEqual([200, 3]);
    expect(await setupCode(s.db)).toBeNull();
  });

  it('from IPv6 loopback too', async () => {
    const res = await signupFrom(s, '::1', form('Owner'));
    expect([res.statusCode, res.json().authenticated]).toEqual([200, 3]);
  });

  it('from anywhere else asks for the setup code, refuses a wrong one, and takes the right one once', async () => {
    const lan = '192.168.1.50';
    const none = await signupFrom(s, lan, form('Intruder'));
    expect([none.statusCode, none.json()]).toEqual([403, { message: authMessages.setupCodeNeeded }]);
    const wrong = await signupFrom(s, lan, form('Intruder', { setupCode: 'AAAAA-AAAAA' }));
    expect([wrong.statusCode, wrong.json()]).toEqual([403, { message: authMessages.setupCodeWrong }]);
    expect(await countUsers(s.db)).toBe(0);

    const code = await setupCode(s.db);
    expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    // The same code every time it is asked for, until it is used.
    expect(await setupCode(s.db)).toBe(code);
    // Typed without the dash and in lower case, over /trpc.
    const typed = (code ?? '').replace('-', '').toLowerCase();
    const owner = await s.app.inject({
      method: 'POST',
      url: '/trpc/auth.signup',
      remoteAddress: lan,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Owner', password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD, setupCode: typed }),
    });
    expect([owner.statusCode, owner.json().result.data.level]).toEqual([200, 3]);
    expect(await setupCode(s.db)).toBeNull();
    const rows = await s.db.selectFrom('auth_setup_code').selectAll().execute();
    expect(rows).toEqual([]);

    // Later accounts need no code (and get none: they wait at level 0), from anywhere.
    const guest = await signupFrom(s, lan, form('guest', { setupCode: code ?? '' }));
    expect([guest.statusCode, guest.json().authenticated]).toEqual([200, 0]);
  });
});

describe.each(databases)('the first account behind a proxy on the server machine (%s)', (kind) => {
  const s = useTestServer(kind, { TRUST_PROXY: '127.0.0.1' });

  it('needs the code for a client on the LAN whose requests the proxy forwards from 127.0.0.1', async () => {
    const res = await signupFrom(s, '127.0.0.1', form('Intruder'), { 'x-forwarded-for': '192.168.1.50' });
    expect([res.statusCode, res.json().message]).toEqual([403, authMessages.setupCodeNeeded]);
    const local = await signupFrom(s, '127.0.0.1', form('Owner'), { 'x-forwarded-for': '127.0.0.1' });
    expect([local.statusCode, local.json().authenticated]).toEqual([200, 3]);
  });
});

describe.each(databases)('the setup code over the control socket (%s)', (kind) => {
  const s = useTestServer(kind);

  it('is the code the server holds, and null once an account exists', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-control-'));
    const channel = await startControlChannel({ setupCode: () => setupCode(s.db) }, dir);
    try {
      const code = await requestSetupCode(dir);
      expect(code).toBe(await setupCode(s.db));
      expect(code).not.toBeNull();
      await signupFrom(s, '127.0.0.1', form('Owner'));
      expect(await requestSetupCode(dir)).toBeNull();
    } finally {
      await channel.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
