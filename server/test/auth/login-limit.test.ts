import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { authMessages } from '@site/contracts';
import { createUser, databases, TEST_PASSWORD, useTestServer } from '../helpers.ts';

const loginFrom = (app: FastifyInstance, address: string, name: string, password: string, cookie?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/login_attempt',
    remoteAddress: address,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    payload: { loginName: name, loginPass: password },
  });

describe.each(databases)('the login limit in a household behind one router (%s)', (kind) => {
  const s = useTestServer(kind);
  const home = '192.168.1.10';

  it('stops guessing one account but lets another member from the same address in at once', async () => {
    await createUser(s.deps, 'Child', 1);
    await createUser(s.deps, 'Mum', 3);
    for (let i = 0; i < 10; i++) expect((await loginFrom(s.app, home, 'Child', `wrong-${i}`)).statusCode).toBe(401);
    // The child's account is stopped, even with the right password from a browser without its device cookie ...
    const child = await loginFrom(s.app, home, 'Child', TEST_PASSWORD);
    expect([child.statusCode, child.json()]).toEqual([429, { message: authMessages.throttled }]);
    // ... and from anywhere else: the count is the account's.
    expect((await loginFrom(s.app, '10.7.0.1', 'Child', TEST_PASSWORD)).statusCode).toBe(429);
    // Mum, behind the same router, signs in at once.
    const mum = await loginFrom(s.app, home, 'Mum', TEST_PASSWORD);
    expect([mum.statusCode, mum.json()]).toEqual([200, { user: 'Mum', authenticated: 3, authentication: 3 }]);
    // And a wrong password of hers is an ordinary 401, not a 429.
    expect((await loginFrom(s.app, home, 'Mum', 'typo')).statusCode).toBe(401);
  });

  it("lets a member's own correct password in from a device that signed in before, while the account is stopped", async () => {
    await createUser(s.deps, 'Child', 1);
    const first = await loginFrom(s.app, home, 'Child', TEST_PASSWORD);
    const device = first.cookies.find((c) => c.name === 'did')?.value ?? '';
    for (let i = 0; i < 12; i++) await loginFrom(s.app, home, 'Child', `wrong-${i}`);
    expect((await loginFrom(s.app, home, 'Child', TEST_PASSWORD)).statusCode).toBe(429);
    expect((await loginFrom(s.app, home, 'Child', TEST_PASSWORD, `did=${device}`)).statusCode).toBe(200);
  });

  it('stops an address that tries many accounts, and counts an account once per address', async () => {
    for (let i = 0; i < 10; i++) {
      // Several tries on each name count as one account for the address.
      for (let j = 0; j < 3; j++) expect((await loginFrom(s.app, home, `name${i}`, `wrong-${j}`)).statusCode).toBe(401);
    }
    const eleventh = await loginFrom(s.app, home, 'name10', 'wrong');
    expect([eleventh.statusCode, eleventh.json()]).toEqual([429, { message: authMessages.throttled }]);
    expect((await loginFrom(s.app, '10.7.0.2', 'name10', 'wrong')).statusCode).toBe(401);
  });

  it('gives the address its account back on a success', async () => {
    await createUser(s.deps, 'Mum', 3);
    for (let i = 0; i < 9; i++) await loginFrom(s.app, home, `ghost${i}`, 'wrong');
    expect((await loginFrom(s.app, home, 'Mum', 'typo')).statusCode).toBe(401);
    expect((await loginFrom(s.app, home, 'Mum', TEST_PASSWORD)).statusCode).toBe(200);
    // Mum's failure no longer counts against the address: one more unknown name still gets an answer.
    expect((await loginFrom(s.app, home, 'ghost9', 'wrong')).statusCode).toBe(401);
    expect((await loginFrom(s.app, home, 'ghost10', 'wrong')).statusCode).toBe(429);
  });

  it('counts the address on every attempt: a name first refused stays refused on its second try', async () => {
    const max = s.deps.config.loginThrottle.maxFailures;
    const names = Array.from({ length: 40 }, (_, i) => `name${i}`);
    const answers: number[] = [];
    for (const round of [1, 2]) for (const name of names) answers.push((await loginFrom(s.app, home, name, `wrong-${round}`)).statusCode);
    // Only the first `max` names were ever checked, once each; every other attempt was refused unchecked.
    expect(answers.filter((status) => status === 401).length).toBe(max);
    expect(answers.slice(0, max).every((status) => status === 401)).toBe(true);
    expect(answers.slice(max).every((status) => status === 429)).toBe(true);
  });

  it('allows an address three times the limit in all, however its attempts spread over its accounts', async () => {
    const max = s.deps.config.loginThrottle.maxFailures;
    await createUser(s.deps, 'Mum', 3);
    for (let i = 0; i < max; i++) for (let j = 0; j < 3; j++) expect((await loginFrom(s.app, home, `name${i}`, `wrong-${j}`)).statusCode).toBe(401);
    const more = await loginFrom(s.app, home, 'name0', 'wrong-3');
    expect([more.statusCode, more.json()]).toEqual([429, { message: authMessages.throttled }]);
    // Only that address is stopped.
    expect((await loginFrom(s.app, '10.7.0.3', 'Mum', TEST_PASSWORD)).statusCode).toBe(200);
  });
});
