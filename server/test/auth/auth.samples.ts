import { expect } from 'vitest';
import type { authRoutes } from '@site/contracts';
import { cookieFor, createUser, postJson } from '../helpers.ts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

/** A well-formed WebAuthn answer to no challenge the server gave (refused as an expired request). */
const samplePasskeyResponse = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key' as const,
  response: { clientDataJSON: 'e30', attestationObject: 'oA' },
  clientExtensionResults: {},
};

/** A valid input per procedure: the permission matrix calls each at every level. */
export const authSamples = {
  'auth.status': undefined,
  'auth.signup': { name: 'newcomer', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' },
  'auth.login': { name: 'nobody', password: 'walnut-table-9' },
  'auth.logout': undefined,
  'auth.changePassword': { currentPassword: 'not it', newPassword: 'walnut-table-10', confirmPassword: 'walnut-table-10' },
  'auth.devices': undefined,
  'auth.signOutDevice': { id: '0123456789abcdef' },
  'auth.signOutOthers': undefined,
  'auth.tokens': undefined,
  'auth.createToken': { label: 'Home Assistant' },
  'auth.revokeToken': { id: 999 },
  'auth.passkeys': undefined,
  'auth.passkeyRegistrationOptions': undefined,
  'auth.addPasskey': { name: 'Laptop', response: samplePasskeyResponse },
  'auth.renamePasskey': { id: 999, name: 'Phone' },
  'auth.removePasskey': { id: 999 },
  'auth.confirmPassword': { password: 'not it' },
  'auth.confirmPasskey': { response: samplePasskeyResponse },
  'auth.passkeyLoginOptions': undefined,
  'auth.passkeyLogin': { response: samplePasskeyResponse },
  'auth.resetStatus': { token: 'A'.repeat(43) },
  'auth.resetPassword': { token: 'A'.repeat(43), newPassword: 'walnut-table-10', confirmPassword: 'walnut-table-10' },
} satisfies AreaSamples<typeof authRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const authParity = {
  async '/api/signup_attempt'(s) {
    const res = await postJson(s.app, '/api/signup_attempt', { signupName: 'Owner', signupPass: 'walnut-table-9', signupConfPass: 'walnut-table-9' });
    expect(res.json()).toEqual({ user: 'Owner', authenticated: 3, authentication: 3 });
    const bad = await postJson(s.app, '/api/signup_attempt', { signupName: 'x', signupPass: 'a', signupConfPass: 'b' });
    expect(Object.keys(bad.json())).toEqual(['message']);
  },
  async '/api/login_attempt'(s) {
    await createUser(s.deps, 'Friend', 1, 'walnut-table-9');
    const res = await postJson(s.app, '/api/login_attempt', { loginName: 'Friend', loginPass: 'walnut-table-9' });
    expect(res.json()).toEqual({ user: 'Friend', authenticated: 1, authentication: 1 });
    await createUser(s.deps, 'Pending', 0, 'walnut-table-9');
    const pending = await postJson(s.app, '/api/login_attempt', { loginName: 'Pending', loginPass: 'walnut-table-9' });
    expect(Object.keys(pending.json()).sort()).toEqual(['message', 'preauth']);
    expect(pending.json().preauth).toBe(true);
  },
  async '/api/login_status'(s) {
    expect((await postJson(s.app, '/api/login_status')).json()).toEqual({ user: null, authenticated: 0, authentication: 0 });
    const cookie = await cookieFor(s.deps, 2, 'Fam');
    expect((await postJson(s.app, '/api/login_status', undefined, cookie)).json()).toEqual({
      user: 'Fam',
      authenticated: 2,
      authentication: 2,
    });
  },
  async '/api/logout'(s) {
    const cookie = await cookieFor(s.deps, 1);
    expect((await postJson(s.app, '/api/logout', undefined, cookie)).json()).toEqual({ ok: true });
    expect((await postJson(s.app, '/api/logout')).json()).toEqual({ ok: true });
  },
  async '/logout'(s) {
    const cookie = await cookieFor(s.deps, 1);
    expect((await postJson(s.app, '/logout', undefined, cookie)).json()).toEqual({ ok: true });
    expect((await postJson(s.app, '/api/login_status', undefined, cookie)).json()).toMatchObject({ user: null });
  },
} satisfies AreaParity<typeof authRoutes>;
