import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { authMessages } from '@site/contracts';
import { createUser, databases, sessionCookie, TEST_PASSWORD, useTestServer } from '../helpers.ts';
import { addPasskey, passkeySignIn, SoftAuthenticator, trpc } from './soft-authenticator.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** Signs in from a browser and address; its session cookie. */
async function signIn(app: FastifyInstance, name: string, password: string, address = '10.0.0.1', ua = FIREFOX) {
  const res = await app.inject({
    method: 'POST',
    url: '/trpc/auth.login',
    remoteAddress: address,
    headers: { 'content-type': 'application/json', 'user-agent': ua },
    payload: { name, password },
  });
  return { status: res.statusCode, cookie: sessionCookie(res) ?? '' };
}

const call = async (app: FastifyInstance, path: string, cookie: string, input?: unknown) => {
  const res =
    input === undefined && !path.startsWith('auth.sign')
      ? await app.inject({ method: 'GET', url: `/trpc/${path}`, headers: { cookie } })
      : await app.inject({ method: 'POST', url: `/trpc/${path}`, headers: { cookie, 'content-type': 'application/json' }, payload: JSON.stringify(input ?? {}) });
  const json = res.json();
  return { status: res.statusCode, data: json.result?.data, message: json.error?.message as string | undefined };
};

const whoIs = async (app: FastifyInstance, cookie: string) => (await call(app, 'auth.status', cookie)).data.user as string | null;

describe.each(databases)('the account page over HTTP (%s)', (kind) => {
  const s = useTestServer(kind);
  const change = (cookie: string, currentPassword: string, newPassword: string, confirmPassword = newPassword) =>
    call(s.app, 'auth.changePassword', cookie, { currentPassword, newPassword, confirmPassword });

  it('changes the password with the current one, signs out every other session, keeps this one', async () => {
    await createUser(s.deps, 'Mia', 1);
    const laptop = await signIn(s.app, 'Mia', TEST_PASSWORD, '10.0.0.1', FIREFOX);
    const phone = await signIn(s.app, 'Mia', TEST_PASSWORD, '10.0.0.2', IPHONE);
    const res = await change(laptop.cookie, TEST_PASSWORD, 'a much newer secret');
    expect([res.status, res.data]).toEqual([200, { message: authMessages.passwordChangedAndKeys }]);
    expect(await whoIs(s.app, laptop.cookie)).toBe('Mia');
    expect(await whoIs(s.app, phone.cookie)).toBeNull();
    expect((await signIn(s.app, 'Mia', TEST_PASSWORD)).status).toBe(401);
    expect((await signIn(s.app, 'Mia', 'a much newer secret')).status).toBe(200);
  });

  it('refuses a wrong current password and the sign-up rules, changing nothing', async () => {
    await createUser(s.deps, 'Mia', 1);
    const { cookie } = await signIn(s.app, 'Mia', TEST_PASSWORD);
    const other = await signIn(s.app, 'Mia', TEST_PASSWORD, '10.0.0.9');
    const cases: [string, string, string, string][] = [
      ['wrong', 'a much newer secret', 'a much newer secret', authMessages.currentPasswordWrong],
      [TEST_PASSWORD, 'a much newer secret', 'a much newer secreT', authMessages.newPasswordsDiffer],
      [TEST_PASSWORD, '', '', authMessages.passwordEmpty],
      [TEST_PASSWORD, 'short', 'short', authMessages.passwordTooShort],
      [TEST_PASSWORD, 'password123', 'password123', authMessages.passwordTooCommon],
      [TEST_PASSWORD, TEST_PASSWORD, TEST_PASSWORD, authMessages.passwordUnchanged],
    ];
    for (const [current, next, confirm, message] of cases) {
      const res = await change(cookie, current, next, confirm);
      expect([res.status, res.message], message).toEqual([400, message]);
    }
    expect(await whoIs(s.app, other.cookie)).toBe('Mia');
    expect((await signIn(s.app, 'Mia', TEST_PASSWORD)).status).toBe(200);
  });

  it('removes the passkeys and tokens with a change ("Also remove my passkeys and tokens", on by default), or keeps them when unticked', async () => {
    await createUser(s.deps, 'Mia', 1);
    const { cookie } = await signIn(s.app, 'Mia', TEST_PASSWORD);
    const keys = async () => {
      const token = (await call(s.app, 'auth.createToken', cookie, { label: 'Script' })).data.token as string;
      const passkey = new SoftAuthenticator();
      expect((await addPasskey(s.app, cookie, passkey)).status).toBe(200);
      return { token, passkey };
    };
    const works = async (k: { token: string; passkey: SoftAuthenticator }) => [
      (await trpc(s.app, 'auth.status', { bearer: k.token }, undefined, 'GET')).data.user,
      (await passkeySignIn(s.app, k.passkey)).status,
    ];
    const kept = await keys();
    const unticked = await call(s.app, 'auth.changePassword', cookie, { currentPassword: TEST_PASSWORD, newPassword: 'a much newer secret', confirmPassword: 'a much newer secret', removeKeys: false });
    expect([unticked.status, unticked.data]).toEqual([200, { message: authMessages.passwordChanged }]);
    expect(await works(kept)).toEqual(['Mia', 200]);

    const removed = await change(cookie, 'a much newer secret', 'the newest secret yet');
    expect([removed.status, removed.data]).toEqual([200, { message: authMessages.passwordChangedAndKeys }]);
    expect(await works(kept)).toEqual([null, 401]);
    expect((await call(s.app, 'auth.tokens', cookie)).data).toEqual([]);
    expect((await call(s.app, 'auth.passkeys', cookie)).data).toEqual([]);
    expect(await whoIs(s.app, cookie)).toBe('Mia');
  });

  it("clears the account's failed-login count on a change", async () => {
    await createUser(s.deps, 'Mia', 1);
    const { cookie } = await signIn(s.app, 'Mia', TEST_PASSWORD);
    for (let i = 0; i < 10; i++) await signIn(s.app, 'Mia', `guess-${i}`, `10.8.0.${i}`);
    expect((await signIn(s.app, 'Mia', TEST_PASSWORD, '10.8.1.1')).status).toBe(429);
    expect((await change(cookie, TEST_PASSWORD, 'a much newer secret')).status).toBe(200);
    expect((await signIn(s.app, 'Mia', 'a much newer secret', '10.8.1.1')).status).toBe(200);
  });

  it('lists the signed-in devices with browser, address and last use, and signs one out', async () => {
    await createUser(s.deps, 'Mia', 1);
    await createUser(s.deps, 'Other', 1);
    const laptop = await signIn(s.app, 'Mia', TEST_PASSWORD, '10.0.0.1', FIREFOX);
    const phone = await signIn(s.app, 'Mia', TEST_PASSWORD, '10.0.0.2', IPHONE);
    const stranger = await signIn(s.app, 'Other', TEST_PASSWORD, '10.0.0.3');
    const list = (await call(s.app, 'auth.devices', laptop.cookie)).data as { id: string; browser: string; address: string; lastUsedAt: string; current: boolean }[];
    expect(list.map((d) => [d.browser, d.address, d.current]).sort()).toEqual([
      ['Firefox 131 on Linux', '10.0.0.1', true],
      ['Safari 17 on iOS', '10.0.0.2', false],
    ]);
    for (const d of list) expect(Date.parse(d.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
    const phoneId = list.find((d) => !d.current)?.id ?? '';
    // Another account's session cannot be named.
    const strangerId = ((await call(s.app, 'auth.devices', stranger.cookie)).data as { id: string }[])[0]?.id ?? '';
    expect((await call(s.app, 'auth.signOutDevice', laptop.cookie, { id: strangerId })).message).toBe(authMessages.unknownDevice);
    expect(await whoIs(s.app, stranger.cookie)).toBe('Other');
    expect((await call(s.app, 'auth.signOutDevice', laptop.cookie, { id: phoneId })).data).toEqual({ ok: true });
    expect(await whoIs(s.app, phone.cookie)).toBeNull();
    expect(await whoIs(s.app, laptop.cookie)).toBe('Mia');
  });

  it('signs out everywhere else', async () => {
    await createUser(s.deps, 'Mia', 0);
    const here = await signIn(s.app, 'Mia', TEST_PASSWORD, '10.0.0.1');
    const there = await signIn(s.app, 'Mia', TEST_PASSWORD, '10.0.0.2');
    // A pending account (level 0) may use the account page too.
    expect((await call(s.app, 'auth.signOutOthers', here.cookie)).data).toEqual({ ended: 1 });
    expect(await whoIs(s.app, there.cookie)).toBeNull();
    expect(await whoIs(s.app, here.cookie)).toBe('Mia');
    expect(((await call(s.app, 'auth.devices', here.cookie)).data as unknown[]).length).toBe(1);
  });
});
