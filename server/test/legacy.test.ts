import { describe, expect, it } from 'vitest';
import { adminMessages, DEFAULT_COLORS, legacyApi, type LegacyPath } from '@site/contracts';
import { cookieFor, createUser, databases, postJson, useTestServer, type TestServer } from './helpers.ts';

type Parity = (s: TestServer) => Promise<void>;

const colorsPayload = {
  menu: '#111111',
  background: '#222222',
  accent: '#333333',
  foreground: '#444444',
  link: '#555555',
  error: '#666666',
  secondaryMenu: '#777777',
};
const savedColors = {
  menuColor: '#111111',
  backgroundColor: '#222222',
  accentColor: '#333333',
  foregroundColor: '#444444',
  linkColor: '#555555',
  errorColor: '#666666',
  menuColor2: '#777777',
};

/** One check per documented path: the documented field names in, the documented field names out. */
const parity: Record<LegacyPath, Parity> = {
  async '/api/signup_attempt'(s) {
    const res = await postJson(s.app, '/api/signup_attempt', { signupName: 'Owner', signupPass: 'pw', signupConfPass: 'pw' });
    expect(res.json()).toEqual({ user: 'Owner', authenticated: 3, authentication: 3 });
    const bad = await postJson(s.app, '/api/signup_attempt', { signupName: 'x', signupPass: 'a', signupConfPass: 'b' });
    expect(Object.keys(bad.json())).toEqual(['message']);
  },
  async '/api/login_attempt'(s) {
    await createUser(s.deps, 'Friend', 1, 'pw');
    const res = await postJson(s.app, '/api/login_attempt', { loginName: 'Friend', loginPass: 'pw' });
    expect(res.json()).toEqual({ user: 'Friend', authenticated: 1, authentication: 1 });
    await createUser(s.deps, 'Pending', 0, 'pw');
    const pending = await postJson(s.app, '/api/login_attempt', { loginName: 'Pending', loginPass: 'pw' });
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
  async '/api/admin/users'(s) {
    const cookie = await cookieFor(s.deps, 3, 'boss');
    await createUser(s.deps, 'Amy', 1);
    await createUser(s.deps, 'carl', 0);
    const res = await postJson(s.app, '/api/admin/users', undefined, cookie);
    expect(res.json()).toEqual([
      { name: 'Amy', authentication: 1 },
      { name: 'boss', authentication: 3 },
      { name: 'carl', authentication: 0 },
    ]);
  },
  async '/api/admin/set_user_auth'(s) {
    const cookie = await cookieFor(s.deps, 3, 'boss');
    await createUser(s.deps, 'Amy', 0);
    for (const authlevel of [2, '1']) {
      const res = await postJson(s.app, '/api/admin/set_user_auth', { username: 'Amy', authlevel }, cookie);
      expect(res.json()).toEqual({ name: 'Amy', authentication: Number(authlevel) });
    }
    const bad = await postJson(s.app, '/api/admin/set_user_auth', { username: 'Amy', authlevel: 4 }, cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^level: /);
    const ghost = await postJson(s.app, '/api/admin/set_user_auth', { username: 'ghost', authlevel: 1 }, cookie);
    expect([ghost.statusCode, ghost.json()]).toEqual([404, { message: adminMessages.unknownUser }]);
    const self = await postJson(s.app, '/api/admin/set_user_auth', { username: 'boss', authlevel: 1 }, cookie);
    expect([self.statusCode, self.json()]).toEqual([400, { message: adminMessages.lastAdmin }]);
  },
  async '/api/user_settings/get_colors'(s) {
    expect((await postJson(s.app, '/api/user_settings/get_colors')).json()).toEqual(DEFAULT_COLORS);
  },
  async '/api/user_settings/set_colors'(s) {
    const cookie = await cookieFor(s.deps, 1);
    const res = await postJson(s.app, '/api/user_settings/set_colors', colorsPayload, cookie);
    expect(res.statusCode).toBe(200);
    expect((await postJson(s.app, '/api/user_settings/get_colors', undefined, cookie)).json()).toEqual(savedColors);
    const bad = await postJson(s.app, '/api/user_settings/set_colors', { ...colorsPayload, link: 'blue' }, cookie);
    expect([bad.statusCode, bad.json()]).toEqual([400, { message: 'linkColor: Colours are written as #rrggbb' }]);
    expect((await postJson(s.app, '/api/user_settings/get_colors', undefined, cookie)).json()).toEqual(savedColors);
  },
  async '/api/user_settings/get_navbar_style'(s) {
    expect((await postJson(s.app, '/api/user_settings/get_navbar_style')).json()).toEqual({ clickToToggle: 'false' });
  },
  async '/api/user_settings/set_navbar_style'(s) {
    const cookie = await cookieFor(s.deps, 1);
    for (const [sent, text] of [[true, 'true'], ['false', 'false'], ['true', 'true']] as const) {
      const res = await postJson(s.app, '/api/user_settings/set_navbar_style', { clickToToggle: sent }, cookie);
      expect(res.json()).toEqual({ clickToToggle: text });
      expect((await postJson(s.app, '/api/user_settings/get_navbar_style', undefined, cookie)).json()).toEqual({
        clickToToggle: text,
      });
    }
    const bad = await postJson(s.app, '/api/user_settings/set_navbar_style', { clickToToggle: 'maybe' }, cookie);
    expect(bad.statusCode).toBe(400);
  },
  async '/api/user_settings/get_should_display_splash_page_popup'(s) {
    const cookie = await cookieFor(s.deps, 1);
    const res = await postJson(s.app, '/api/user_settings/get_should_display_splash_page_popup', undefined, cookie);
    expect(res.json()).toEqual({ display: 'true' });
  },
  async '/api/user_settings/never_again_display_splash_page_popup'(s) {
    const cookie = await cookieFor(s.deps, 1);
    const res = await postJson(s.app, '/api/user_settings/never_again_display_splash_page_popup', { year: 2024 }, cookie);
    expect(res.json()).toEqual({ display: 'false' });
    const after = await postJson(s.app, '/api/user_settings/get_should_display_splash_page_popup', undefined, cookie);
    expect(after.json()).toEqual({ display: 'false' });
  },
};

describe.each(databases)('/api parity (%s)', (kind) => {
  const s = useTestServer(kind);

  it.each(Object.keys(legacyApi) as LegacyPath[])('%s', async (path) => {
    await parity[path](s);
  });

  it('answers refusals with { message } and the right status', async () => {
    const anon = await postJson(s.app, '/api/admin/users');
    expect(anon.statusCode).toBe(401);
    expect(Object.keys(anon.json())).toEqual(['message']);
    const friend = await cookieFor(s.deps, 1);
    expect((await postJson(s.app, '/api/admin/users', undefined, friend)).statusCode).toBe(403);
    const pending = await cookieFor(s.deps, 0, 'pending');
    const res = await postJson(s.app, '/api/user_settings/set_colors', colorsPayload, pending);
    expect(res.statusCode).toBe(403);
    expect(res.json().preauth).toBe(true);
  });

  it('refuses a body that is not a JSON object, and unknown /api paths', async () => {
    expect((await postJson(s.app, '/api/login_attempt', [1, 2])).statusCode).toBe(400);
    const broken = await s.app.inject({
      method: 'POST',
      url: '/api/login_attempt',
      headers: { 'content-type': 'application/json' },
      payload: '{"loginName":',
    });
    expect(broken.statusCode).toBe(400);
    expect(typeof broken.json().message).toBe('string');
    const missing = await postJson(s.app, '/api/nothing_here');
    expect(missing.statusCode).toBe(404);
    expect(typeof missing.json().message).toBe('string');
  });
});
