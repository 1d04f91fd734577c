import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_COLORS, WEB_MANIFEST_BASE_FILE } from '@site/contracts';
import { cookieFor, databases, postJson, useTestServer } from '../helpers.ts';
import { colorsPayload } from './settings.samples.ts';

/** A built client as far as the manifest and the service worker go. */
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'site-pwa-'));
fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
fs.writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
fs.writeFileSync(path.join(dist, 'workbox-abc123.js'), 'define([], () => {});');
const base = {
  id: '/',
  name: 'Sample Owner',
  short_name: 'Sample Owner',
  start_url: '/personal',
  scope: '/',
  display: 'standalone',
  background_color: DEFAULT_COLORS.backgroundColor,
  theme_color: DEFAULT_COLORS.menuColor,
  icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' }],
};
fs.writeFileSync(path.join(dist, WEB_MANIFEST_BASE_FILE), JSON.stringify(base));
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

describe.each(databases)('installable app: manifest and service worker (%s)', (kind) => {
  const s = useTestServer(kind, { CLIENT_DIST: dist });

  it("serves the manifest in the owner's colours, revalidated on every use", async () => {
    const first = await s.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toContain('application/manifest+json');
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.json()).toEqual(base);

    const owner = await cookieFor(s.deps, 3, 'owner');
    expect((await postJson(s.app, '/api/user_settings/set_colors', colorsPayload, owner)).statusCode).toBe(200);
    // A member's own colours are theirs alone.
    const member = await cookieFor(s.deps, 1, 'member');
    expect((await postJson(s.app, '/api/user_settings/set_colors', { ...colorsPayload, menu: '#abcdef' }, member)).statusCode).toBe(200);
    for (const cookie of [undefined, member, owner]) {
      const res = await s.app.inject({ method: 'GET', url: '/manifest.webmanifest', headers: cookie ? { cookie } : {} });
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.json()).toEqual({ ...base, theme_color: colorsPayload.menu, background_color: colorsPayload.background });
    }
  });

  it('serves sw.js and its Workbox runtime revalidated (no-cache), so a deploy reaches the browser', async () => {
    for (const url of ['/sw.js', '/workbox-abc123.js']) {
      const res = await s.app.inject({ method: 'GET', url });
      expect([url, res.statusCode, res.headers['cache-control']]).toEqual([url, 200, 'no-cache']);
      expect(res.headers['content-type']).toContain('javascript');
    }
    // The site's CSP lets the worker and the manifest load from the site itself.
    const csp = String((await s.app.inject({ method: 'GET', url: '/sw.js' })).headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/worker-src|manifest-src/);
  });
});

describe('installable app without a built client', () => {
  const s = useTestServer('pglite', { CLIENT_DIST: path.join(dist, 'missing') });

  it('answers 404 with a readable message', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'The client is not built, so there is no web app manifest yet' });
  });
});
