import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { adminMessages, authMessages } from '@site/contracts';
import { accountCommand, AccountCommandError } from '../../src/areas/auth/commands.ts';
import { cookieFor, createUser, databases, sessionCookie, TEST_PASSWORD, useTestServer } from '../helpers.ts';
import { addPasskey, passkeySignIn, SoftAuthenticator } from './soft-authenticator.ts';

const trpc = async (app: FastifyInstance, path: string, input: unknown, cookie?: string, method: 'GET' | 'POST' = 'POST') => {
  const res =
    method === 'GET'
      ? await app.inject({ method, url: `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, headers: cookie ? { cookie } : {} })
      : await app.inject({ method, url: `/trpc/${path}`, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, payload: JSON.stringify(input) });
  const json = res.json();
  return { status: res.statusCode, data: json.result?.data, message: json.error?.message as string | undefined };
};

const login = async (app: FastifyInstance, name: string, password: string) => {
  const res = await app.inject({ method: 'POST', url: '/trpc/auth.login', headers: { 'content-type': 'application/json' }, payload: { name, password } });
  return { status: res.statusCode, cookie: sessionCookie(res) ?? '' };
};

const tokenOf = (path: string) => path.split('#')[1] ?? '';

describe.each(databases)('reset links (%s)', (kind) => {
  const s = useTestServer(kind, { PUBLIC_URL: 'https://home.example.org/' });

  it('lets an admin make a one-time link that sets a new password, signs out the member, and works once', async () => {
    const admin = await cookieFor(s.deps, 3, 'Boss');
    await createUser(s.deps, 'Mia', 1);
    const session = await login(s.app, 'Mia', TEST_PASSWORD);
    const made = await trpc(s.app, 'admin.resetLink', { name: 'mia' }, admin);
    expect(made.status).toBe(200);
    expect(made.data).toMatchObject({ name: 'Mia', path: expect.stringMatching(/^\/reset-password#[A-Za-z0-9_-]{43}$/) });
    expect(made.data.url).toBe(`https://home.example.org${made.data.path}`);
    expect(Date.parse(made.data.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    const token = tokenOf(made.data.path);
    // Only the hash is stored.
    expect(JSON.stringify(await s.db.selectFrom('auth_reset_links').selectAll().execute())).not.toContain(token);

    expect((await trpc(s.app, 'auth.resetStatus', { token }, undefined, 'GET')).data).toEqual({ state: 'valid', name: 'Mia' });
    const mismatch = await trpc(s.app, 'auth.resetPassword', { token, newPassword: 'a fresh secret', confirmPassword: 'a fresh secreT' });
    expect([mismatch.status, mismatch.message]).toEqual([400, authMessages.newPasswordsDiffer]);
    const common = await trpc(s.app, 'auth.resetPassword', { token, newPassword: 'password123', confirmPassword: 'password123' });
    expect([common.status, common.message]).toEqual([400, authMessages.passwordTooCommon]);

    const done = await trpc(s.app, 'auth.resetPassword', { token, newPassword: 'a fresh secret', confirmPassword: 'a fresh secret' });
    expect([done.status, done.data]).toEqual([200, { name: 'Mia', message: authMessages.resetDone }]);
    expect((await trpc(s.app, 'auth.status', undefined, session.cookie, 'GET')).data).toEqual({ user: null, level: 0 });
    expect((await login(s.app, 'Mia', TEST_PASSWORD)).status).toBe(401);
    expect((await login(s.app, 'Mia', 'a fresh secret')).status).toBe(200);

    // A second visit says the link is used, and it sets nothing.
    expect((await trpc(s.app, 'auth.resetStatus', { token }, undefined, 'GET')).data).toEqual({ state: 'used', name: 'Mia' });
    const again = await trpc(s.app, 'auth.resetPassword', { token, newPassword: 'another secret', confirmPassword: 'another secret' });
    expect([again.status, again.message]).toEqual([409, authMessages.resetUsed]);
    expect((await login(s.app, 'Mia', 'a fresh secret')).status).toBe(200);
  });

  it('refuses an expired, unknown or replaced link, and clears the failed-login count when used', async () => {
    const admin = await cookieFor(s.deps, 3, 'Boss');
    await createUser(s.deps, 'Mia', 1);
    const first = tokenOf((await trpc(s.app, 'admin.resetLink', { name: 'Mia' }, admin)).data.path);
    const second = tokenOf((await trpc(s.app, 'admin.resetLink', { name: 'Mia' }, admin)).data.path);
    // The older link says a newer one replaced it, and sets nothing.
    expect((await trpc(s.app, 'auth.resetStatus', { token: first }, undefined, 'GET')).data).toEqual({ state: 'replaced', name: 'Mia' });
    const replaced = await trpc(s.app, 'auth.resetPassword', { token: first, newPassword: 'a fresh secret', confirmPassword: 'a fresh secret' });
    expect([replaced.status, replaced.message]).toEqual([409, authMessages.resetReplaced]);
    expect((await trpc(s.app, 'auth.resetStatus', { token: 'nonsense' }, undefined, 'GET')).data).toEqual({ state: 'unknown', name: null });
    const unknown = await trpc(s.app, 'auth.resetPassword', { token: 'A'.repeat(43), newPassword: 'a fresh secret', confirmPassword: 'a fresh secret' });
    expect([unknown.status, unknown.message]).toEqual([404, authMessages.resetUnknown]);

    for (let i = 0; i < 10; i++) await login(s.app, 'Mia', `guess-${i}`);
    expect((await login(s.app, 'Mia', TEST_PASSWORD)).status).toBe(429);
    await s.db.updateTable('auth_reset_links').set({ expires_at: new Date(Date.now() - 1000) }).execute();
    const expired = await trpc(s.app, 'auth.resetPassword', { token: second, newPassword: 'a fresh secret', confirmPassword: 'a fresh secret' });
    expect([expired.status, expired.message]).toEqual([409, authMessages.resetExpired]);
    await s.db.updateTable('auth_reset_links').set({ expires_at: new Date(Date.now() + 3600_000) }).execute();
    expect((await trpc(s.app, 'auth.resetPassword', { token: second, newPassword: 'a fresh secret', confirmPassword: 'a fresh secret' })).status).toBe(200);
    expect((await login(s.app, 'Mia', 'a fresh secret')).status).toBe(200);
  });

  it('ends every session, API token and passkey of the account', async () => {
    const admin = await cookieFor(s.deps, 3, 'Boss');
    await createUser(s.deps, 'Mia', 1);
    const { cookie } = await login(s.app, 'Mia', TEST_PASSWORD);
    const token = (await trpc(s.app, 'auth.createToken', { label: 'Script' }, cookie)).data.token as string;
    // This site's PUBLIC_URL is its passkeys' origin.
    const passkey = new SoftAuthenticator('https://home.example.org');
    expect((await addPasskey(s.app, cookie, passkey)).status).toBe(200);
    expect((await passkeySignIn(s.app, passkey)).status).toBe(200);
    const link = tokenOf((await trpc(s.app, 'admin.resetLink', { name: 'Mia' }, admin)).data.path);
    const done = await trpc(s.app, 'auth.resetPassword', { token: link, newPassword: 'a fresh secret', confirmPassword: 'a fresh secret' });
    expect([done.status, done.data]).toEqual([200, { name: 'Mia', message: authMessages.resetDone }]);
    const bearer = await s.app.inject({ method: 'GET', url: '/trpc/todo.list', headers: { authorization: `Bearer ${token}` } });
    expect(bearer.statusCode).toBe(401);
    const again = await passkeySignIn(s.app, passkey);
    expect([again.status, again.message]).toEqual([401, authMessages.passkeyUnknown]);
    expect(await s.db.selectFrom('sessions').innerJoin('users', 'users.id', 'sessions.user_id').select('token_hash').where('users.name', '=', 'Mia').execute()).toEqual([]);
    expect((await login(s.app, 'Mia', 'a fresh secret')).status).toBe(200);
  });

  it('refuses a reset link for an unknown member and to anyone below admin', async () => {
    const admin = await cookieFor(s.deps, 3, 'Boss');
    const family = await cookieFor(s.deps, 2, 'Fam');
    expect((await trpc(s.app, 'admin.resetLink', { name: 'ghost' }, admin)).message).toBe(adminMessages.unknownUser);
    expect((await trpc(s.app, 'admin.resetLink', { name: 'Boss' }, family)).status).toBe(403);
    expect(await s.db.selectFrom('auth_reset_links').selectAll().execute()).toEqual([]);
  });

  it('prints the whole link for `npm run user -- reset-link`, from PUBLIC_URL', async () => {
    await createUser(s.deps, 'Mia', 1);
    const lines = await accountCommand(s.deps, 'reset-link', ['mia']);
    expect(lines.at(-1)).toMatch(/^https:\/\/home\.example\.org\/reset-password#[A-Za-z0-9_-]{43}$/);
    await expect(accountCommand(s.deps, 'reset-link', ['ghost'])).rejects.toThrow(new AccountCommandError(adminMessages.unknownUser));
  });
});
