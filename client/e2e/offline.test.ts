import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { PHONE, describeInBrowser, expect, serviceWorkerControls, signUp, signUpOwner, startServer, useSite, waitForShell } from './harness.ts';
import { open, setLevel } from './members.ts';
import { repoRoot } from './paths.ts';
import { LIGHTHOUSE_MOBILE, slowNetwork } from './slow-network.ts';

/** What the page has kept in IndexedDB for one tRPC path, as JSON ('' when nothing). */
async function kept(page: Page, path: string): Promise<string> {
  return page.evaluate(
    (wanted) =>
      new Promise<string>((resolve) => {
        const request = indexedDB.open('site');
        request.onerror = () => resolve('');
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains('react-query')) return resolve('');
          const get = db.transaction('react-query').objectStore('react-query').get('queries');
          get.onsuccess = () => {
            const queries = (get.result as { client?: { clientState: { queries: { queryKey: [string[]]; state: { data: unknown } }[] } } } | undefined)?.client?.clientState.queries ?? [];
            const found = queries.find((q) => q.queryKey[0].join('.') === wanted);
            resolve(found ? JSON.stringify(found.state.data) : '');
          };
          get.onerror = () => resolve('');
        };
      }),
    path,
  );
}

/** The tRPC paths whose answers the page has kept in IndexedDB (client/src/lib/persist.ts). */
function keptPaths(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const request = indexedDB.open('site');
        request.onerror = () => resolve([]);
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains('react-query')) return resolve([]);
          const get = db.transaction('react-query').objectStore('react-query').get('queries');
          get.onsuccess = () => {
            const queries = (get.result as { client?: { clientState: { queries: { queryKey: [string[]] }[] } } } | undefined)?.client?.clientState.queries ?? [];
            resolve(queries.map((q) => q.queryKey[0].join('.')));
          };
          get.onerror = () => resolve([]);
        };
      }),
  );
}

/** Draws a phone's status bar (24 px, in the app's theme colour) above a 390 px screenshot, as Android shows an installed app. */
async function standaloneFrame(screenshot: string, themeColor: string, out: string): Promise<void> {
  const { width = 390, height = 844 } = await sharp(screenshot).metadata();
  const bar = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="24"><rect width="100%" height="100%" fill="${themeColor}"/>` +
      `<text x="14" y="17" font-family="sans-serif" font-size="13" fill="#ffffff">9:41</text>` +
      `<text x="${width - 14}" y="17" font-family="sans-serif" font-size="13" fill="#ffffff" text-anchor="end">100%</text></svg>`,
  );
  await sharp({ create: { width, height: height + 24, channels: 4, background: themeColor } })
    .composite([
      { input: bar, top: 0, left: 0 },
      { input: screenshot, top: 24, left: 0 },
    ])
    .png()
    .toFile(out);
}

/** The one place a page says it is offline (components/Loaded.tsx). */
const offlineBadge = (page: Page) => page.locator('.offline-banner').getByText(/^You are offline: /);

describeInBrowser('offline: the installable app reads its lists with no network', () => {
  const site = useSite();

  it('after one visit, /house and /personal/todo open offline with their last state and "You are offline"; the app passes Chromium\'s installability checks', async () => {
    const owner = await site.newPage();
    await signUpOwner(owner);
    // The owner's colours are the installed app's.
    const saved = await owner.evaluate(async () => {
      const colors = { menu: '#123456', background: '#202020', accent: '#5f7f6f', foreground: '#bfdfcf', link: '#6495ed', error: '#fa8072', secondaryMenu: '#000000' };
      return (await fetch('/api/user_settings/set_colors', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(colors) })).status;
    });
    expect(saved).toBe(200);

    const context = await site.newContext(PHONE, { serviceWorkers: 'allow' });
    const page = await context.newPage();
    await signUp(page, 'family', 'family-password');
    await page.waitForURL('**/preauth');
    await setLevel(owner, 'family', 2);

    await open(page, '/house');
    const task = page.getByLabel('Task', { exact: true });
    await task.fill('Milk');
    await page.getByRole('button', { name: 'To Get', exact: true }).click();
    await page.getByRole('cell', { name: 'Milk', exact: true }).waitFor();
    const started = Date.now();
    const worker = await serviceWorkerControls(page);
    console.log(`[offline] ${worker} controls the page ${Date.now() - started} ms after the first visit`);
    expect(worker).toBe(site.url('/sw.js'));

    // The About page, opened once online: the worker keeps the copy.
    await page.goto('/about');
    await waitForShell(page);
    await open(page, '/house');

    // "One visit": the page has written what it shows.
    await expect.poll(() => kept(page, 'house.list')).toContain('Milk');
    await open(page, '/personal/todo');
    await page.getByLabel('Task', { exact: true }).fill('Call grandma');
    await page.getByLabel('Task', { exact: true }).press('Control+Enter');
    await page.getByRole('cell', { name: 'Call grandma', exact: true }).waitFor();
    await expect.poll(() => kept(page, 'todo.list')).toContain('Call grandma');
    await expect.poll(() => keptPaths(page)).toEqual(expect.arrayContaining(['auth.status', 'settings.colors', 'house.list', 'todo.list']));

    // Installable: Chromium's own checks (what Lighthouse's installable-manifest audit reads) and the manifest.
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    // A Playwright context is an incognito profile, which Chromium never installs from: that one error
    // is about the test's browser, not the site (e2e/installable.test.ts runs Lighthouse in a normal profile).
    expect(installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([]);
    const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'Sample Owner', short_name: 'Sample Owner', start_url: '/personal', scope: '/', display: 'standalone', theme_color: '#123456', background_color: '#202020' });
    // The open tab's title bar follows the viewer's own navbar colour (this member kept the defaults).
    await expect(page.locator('meta[name="theme-color"]').getAttribute('content')).resolves.toBe('#001f0f');

    // The network goes: both pages open from the service worker and the kept answers.
    await context.setOffline(true);
    await page.reload();
    await waitForShell(page);
    await page.getByRole('cell', { name: 'Call grandma', exact: true }).waitFor();
    await offlineBadge(page).waitFor();
    // The prerendered About page opens too (the copy the worker kept when this phone opened it online above).
    await page.goto('/about');
    await waitForShell(page);
    await page.locator('#overview').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).count()).resolves.toBeGreaterThan(0);
    await page.goto('/house');
    await waitForShell(page);
    await page.getByRole('cell', { name: 'Milk', exact: true }).waitFor();
    await offlineBadge(page).waitFor();
    await site.screenshot(page, 'offline-house-phone', { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await site.screenshot(page, 'offline-house-desktop');
    await page.setViewportSize(PHONE);

    // A change made on the page opened with no network waits in the queue, marked as such.
    await task.fill('Eggs');
    await page.getByRole('button', { name: 'To Get', exact: true }).click();
    await page.getByText('1 change waiting', { exact: true }).waitFor();

    // Back online: "Offline" goes, the waiting change is sent (once) and the page reads the server again.
    await context.setOffline(false);
    await offlineBadge(page).waitFor({ state: 'hidden' });
    await page.getByText('1 change waiting', { exact: true }).waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByRole('cell', { name: 'Eggs', exact: true }).waitFor();
    await expect(page.getByRole('cell', { name: 'Eggs', exact: true }).count()).resolves.toBe(1);
    await task.fill('Bread');
    await page.getByRole('button', { name: 'To Get', exact: true }).click();
    await page.getByRole('cell', { name: 'Bread', exact: true }).waitFor();

    // The installed app at phone size for the README ("Install on a phone"): a standalone window is the
    // page with no browser around it, under the phone's status bar in the manifest's theme colour.
    await open(page, '/personal');
    await page.getByRole('dialog', { name: 'Welcome to the hub' }).getByRole('button', { name: "Don't show again" }).click();
    await open(page, '/house');
    await page.getByRole('cell', { name: 'Bread', exact: true }).waitFor();
    const shot = await site.screenshot(page, 'install-page-phone');
    if (shot) await standaloneFrame(shot, String(manifest.theme_color), path.join(path.dirname(shot), 'install-standalone-phone.png'));

    // Signing out forgets the member's own list: the next person on this phone never sees it.
    await open(page, '/logout');
    await page.waitForURL('**/about');
    await expect.poll(() => keptPaths(page)).not.toContain('todo.list');
  });

  it('a new deploy offers "Reload for the new version", which reloads into it', async () => {
    // A copy of the build, so this test can deploy a "new version" without touching the shared one.
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'site-dist-'));
    fs.cpSync(path.join(repoRoot, 'client', 'dist'), dist, { recursive: true });
    const server = await startServer({ CLIENT_DIST: dist });
    try {
      const context = await site.browser.newContext({ viewport: PHONE, baseURL: server.baseUrl, serviceWorkers: 'allow' });
      const page = await context.newPage();
      await page.goto('/login');
      await waitForShell(page);
      await serviceWorkerControls(page);
      const reload = page.getByRole('button', { name: 'Reload for the new version', exact: true });
      await expect(reload.count()).resolves.toBe(0);

      // The deploy: a changed index.html and the service worker that precaches it.
      const index = path.join(dist, 'index.html');
      for (const compressed of ['.br', '.gz']) fs.rmSync(`${index}${compressed}`, { force: true });
      fs.writeFileSync(index, fs.readFileSync(index, 'utf8').replace('<head>', '<head><meta name="site-version" content="2" />'));
      const sw = path.join(dist, 'sw.js');
      const before = fs.readFileSync(sw, 'utf8');
      const after = before.replace(/(\{url:"index\.html",revision:")[^"]+"/, '$1second-deploy"');
      expect(after).not.toBe(before);
      fs.writeFileSync(sw, after);

      // The tab becomes visible again: the page looks for a new version and offers it.
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await reload.waitFor({ timeout: 30_000 });
      await expect(page.locator('meta[name="site-version"]').count()).resolves.toBe(0);
      await Promise.all([page.waitForEvent('load'), reload.click()]);
      await waitForShell(page);
      await expect(page.locator('meta[name="site-version"]').getAttribute('content')).resolves.toBe('2');
      await expect(reload.count()).resolves.toBe(0);
      await context.close();
    } finally {
      await server.stop();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});

describeInBrowser('offline from the first visit', () => {
  const site = useSite();

  it("gets ready to work offline soon after the first visit's load on Lighthouse's mobile network (what it fetches fits in 2 s), and says so: offline then, a reload opens House (390 px)", async () => {
    const context = await site.newContext(PHONE, { serviceWorkers: 'allow' });
    const page = await context.newPage();
    await signUpOwner(page);
    await open(page, '/house');
    await page.getByLabel('Task', { exact: true }).fill('Butter');
    await page.getByRole('button', { name: 'To Get', exact: true }).click();
    await page.getByRole('cell', { name: 'Butter', exact: true }).waitFor();

    // The first visit of the site's other address (its own origin: no worker, no HTTP cache yet; the
    // cookie is the same), through a phone's network.
    const slow = await slowNetwork(site.server.baseUrl);
    try {
      await page.goto(`${slow.baseUrl}/house`, { waitUntil: 'load' });
      const loadedAt = Date.now();
      await page.getByText('Getting ready to work offline…', { exact: true }).or(page.getByText(/^Ready to work offline/)).waitFor();
      await page.getByText('Ready to work offline: this site now opens on this device with no network.', { exact: true }).waitFor({ timeout: 10_000 });
      const readyMs = Date.now() - loadedAt;
      // The precache as the worker holds it: as many files as the built sw.js lists and docs/offline.md says.
      const held = await page.evaluate(async () => {
        let n = 0;
        for (const name of await caches.keys()) if (name.startsWith('workbox-precache')) n += (await (await caches.open(name)).keys()).length;
        return n;
      });
      const listed = [...fs.readFileSync(path.join(repoRoot, 'client', 'dist', 'sw.js'), 'utf8').matchAll(/url:"([^"]+)"/g)].length;
      const documented = Number(/The precache is (\d+)\s+files/.exec(fs.readFileSync(path.join(repoRoot, 'docs', 'offline.md'), 'utf8'))?.[1]);
      expect({ held, listed }).toEqual({ held: documented, listed: documented });
      const after = slow.requests.filter((r) => r.startedAt >= loadedAt - 50 && !r.path.startsWith('/trpc'));
      console.log(
        `[offline] ready ${readyMs} ms after the load event at ${LIGHTHOUSE_MOBILE.rttMs} ms RTT, ${LIGHTHOUSE_MOBILE.downKbps} kbit/s; ` +
          `${after.length} requests, ${(after.reduce((sum, r) => sum + r.bytes, 0) / 1024).toFixed(1)} KB on the wire after it: ` +
          after.map((r) => `${r.path.replace(/\?.*$/, '')} ${(r.bytes / 1024).toFixed(1)} KB ${r.ms} ms`).join(', '),
      );
      // Ready within 2 s of the load is the goal on a quiet machine (the time is printed above, and is
      // about 1.9 s quiet: docs/benchmarks.md). What the test holds is what decides it on a phone's network
      // and does not move with this machine's load: the bytes fetched after the load fit in what the
      // link carries in 2 s less four round trips (the worker's script, its precache, the push
      // script, the page's late chunks), and nothing crosses the wire twice (the worker's precache
      // finds what the page warmed in the HTTP cache).
      const bytesAfter = after.reduce((sum, r) => sum + r.bytes, 0);
      expect(bytesAfter).toBeLessThanOrEqual(((2_000 - 4 * LIGHTHOUSE_MOBILE.rttMs) * LIGHTHOUSE_MOBILE.downKbps * 1024) / 8 / 1000);
      const paths = after.map((r) => r.path);
      expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([]);
      await page.getByRole('cell', { name: 'Butter', exact: true }).waitFor();
      await site.screenshot(page, 'offline-ready-phone');

      // The network goes 2 s after the load event: a reload opens the page from the worker, with the kept list.
      await page.waitForTimeout(Math.max(0, loadedAt + 2_000 - Date.now()));
      await context.setOffline(true);
      await page.reload();
      await waitForShell(page);
      await page.getByRole('cell', { name: 'Butter', exact: true }).waitFor();
      await offlineBadge(page).waitFor();
      // Said once: the banner, not a chip and a box besides.
      await expect(page.getByText(/offline/i).count()).resolves.toBe(1);
      await expect(page.getByRole('status').filter({ hasText: /^Showing the house list as last loaded on / }).count()).resolves.toBe(1);
      await site.screenshot(page, 'offline-first-visit-phone');
    } finally {
      await context.setOffline(false);
      await slow.close();
      await context.close();
    }
  });
});
