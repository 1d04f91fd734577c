import { expect } from 'vitest';
import type { settingsRoutes } from '@site/contracts';
import { DEFAULT_COLORS } from '@site/contracts';
import { cookieFor, postJson } from '../helpers.ts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

export const colorsPayload = {
  menu: '#111111',
  background: '#222222',
  accent: '#333333',
  foreground: '#444444',
  link: '#555555',
  error: '#666666',
  secondaryMenu: '#777777',
};
export const savedColors = {
  menuColor: '#111111',
  backgroundColor: '#222222',
  accentColor: '#333333',
  foregroundColor: '#444444',
  linkColor: '#555555',
  errorColor: '#666666',
  menuColor2: '#777777',
};

/** A valid input per procedure: the permission matrix calls each at every level. */
export const settingsSamples = {
  'settings.colors': undefined,
  'settings.saveColors': DEFAULT_COLORS,
  'settings.navbarStyle': undefined,
  'settings.saveNavbarStyle': { clickToToggle: true },
  'settings.splash': undefined,
  'settings.dismissSplash': undefined,
} satisfies AreaSamples<typeof settingsRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const settingsParity = {
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
} satisfies AreaParity<typeof settingsRoutes>;
