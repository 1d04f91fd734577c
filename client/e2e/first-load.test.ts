import fs from 'node:fs';
import path from 'node:path';
import { it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { ABOUT_BUDGET_KB, PERSONAL_BUDGET_KB, SHELL_BUDGET_KB, firstLoads, lazyRoutes, readManifest } from '../first-load.ts';
import { STARTUP_BATCH_URL, fetchPreload } from '../start-hints.ts';
import { FIRST_PAGE_CALLS, batchUrl } from '../src/app/first-page-data.ts';
import { DESKTOP, PHONE, describeInBrowser, expect, logIn, signUpOwner, useSite, waitForShell } from './harness.ts';

/** The scripts a page load fetched: URL, content-encoding, Vary and bytes on the wire (body as sent). */
async function scriptsOf(page: Page, open: () => Promise<unknown>) {
  const responses: Response[] = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() === 'script') responses.push(response);
  };
  page.on('response', onResponse);
  await open();
  await page.waitForLoadState('load');
  page.off('response', onResponse);
  return Promise.all(
    responses.map(async (response) => ({
      url: new URL(response.url()).pathname,
      encoding: (await response.headerValue('content-encoding')) ?? 'none',
      vary: await response.headerValue('vary'),
      wireBytes: (await response.request().sizes()).responseBodySize,
    })),
  );
}

const dist = path.join(import.meta.dirname, '..', 'dist');

/** Whether the page's #root is a React root: react-dom marks the container it renders into. */
const isReactRoot = (page: Page) => page.evaluate(() => Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer$')));

describeInBrowser('first load: /about small and every script compressed', () => {
  const site = useSite();

  it('runs React in production: react-dom in the build, no Preact, and the root of the app and of /about is a React root', async () => {
    const scripts = fs.readdirSync(path.join(dist, 'assets')).filter((file) => file.endsWith('.js'));
    const text = scripts.map((file) => fs.readFileSync(path.join(dist, 'assets', file), 'utf8'));
    expect(text.some((code) => code.includes('__reactContainer$'))).toBe(true);
    // Preact's own marks, which survive minifying: its hooks' slot (`.__H`) and its vnodes' id (`__v:`).
    expect(scripts.filter((_, i) => /\.__H\b|\b__v:/.test(text[i] ?? ''))).toEqual([]);

    const page = await site.newPage({ viewport: DESKTOP });
    await page.goto('/login');
    await waitForShell(page);
    await expect(isReactRoot(page)).resolves.toBe(true);
    await page.goto('/about');
    await waitForShell(page);
    await expect.poll(() => isReactRoot(page)).toBe(true);
    await expect(site.pageErrors(page)).toEqual([]);
  });

  it(`loads /about with at most ${ABOUT_BUDGET_KB} KB of script, sent compressed, and the About page still works`, async () => {
    const { about } = firstLoads(dist);
    expect(about.brotliKb).toBeLessThanOrEqual(ABOUT_BUDGET_KB);

    const page = await site.newPage({ viewport: PHONE });
    const scripts = await scriptsOf(page, () => page.goto('/about'));
    expect(scripts.length).toBeGreaterThan(0);
    // No framework on the first load: React comes after it, from its own chunk.
    expect(scripts.map((s) => s.url).filter((url) => !about.files.includes(url.slice(1)))).toEqual([]);
    for (const script of scripts) expect([script.url, script.encoding, script.vary]).toEqual([script.url, 'br', 'accept-encoding']);
    const wireKb = scripts.reduce((sum, s) => sum + s.wireBytes, 0) / 1024;
    expect(wireKb).toBeLessThanOrEqual(ABOUT_BUDGET_KB);

    await waitForShell(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link').allTextContents()).resolves.toEqual(['S.O.', 'About', 'Login']);
    const mail = page.getByRole('link', { name: /^E-mail / });
    await mail.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => site.alerts(page)).toEqual(['Email address copied to clipboard. This is in case your device does not support mailto links.']);
    await expect(site.pageErrors(page)).toEqual([]);
  });

  it('gives a member the whole navbar on /about (hydrated by React), and the gallery raises no CSP issue', async () => {
    const page = await site.newPage({ viewport: DESKTOP });
    await signUpOwner(page);
    // Chrome's issues (Lighthouse best practices): zod probing for eval under the CSP was one.
    const issues: string[] = [];
    const cdp = await page.context().newCDPSession(page);
    cdp.on('Audits.issueAdded', (event) => issues.push(JSON.stringify(event.issue)));
    await cdp.send('Audits.enable');
    await page.goto('/personal/pictures');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(issues).toEqual([]);

    await page.goto('/about');
    await waitForShell(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect.poll(() => nav.getByRole('link').allTextContents()).toEqual(['Sample Owner', 'About', 'Contact▾', 'Cool Stuff▾', 'Admin▾', 'Logout▾']);
    await page.locator('.navbar-tab.has-dropdown', { hasText: 'Contact' }).hover();
    await nav.getByRole('button', { name: /^Phone/ }).click();
    await expect.poll(() => site.alerts(page)).toEqual(['Phone number copied to clipboard']);
    await expect(site.pageErrors(page)).toEqual([]);
  });

  it(`sends the app's scripts compressed too, the shell every page starts with at most ${SHELL_BUDGET_KB} KB`, async () => {
    const { shell } = firstLoads(dist);
    expect(shell.brotliKb).toBeLessThanOrEqual(SHELL_BUDGET_KB);

    const page = await site.newPage({ viewport: PHONE });
    const scripts = await scriptsOf(page, () => page.goto('/login'));
    expect(scripts.length).toBeGreaterThan(0);
    // What the build's manifest calls the shell is what the browser loaded first.
    const shellScripts = scripts.filter((s) => shell.files.includes(s.url.slice(1)));
    expect(shellScripts.map((s) => s.url.slice(1)).sort()).toEqual([...shell.files].sort());
    expect(shellScripts.reduce((sum, s) => sum + s.wireBytes, 0) / 1024).toBeLessThanOrEqual(SHELL_BUDGET_KB);
    // The build leaves files under 1 KB as they are (compressing them gains less than it costs).
    for (const script of scripts) {
      expect([script.url, script.wireBytes < 1024 ? 'br' : script.encoding, script.vary]).toEqual([script.url, 'br', 'accept-encoding']);
    }
    await page.getByRole('heading', { name: 'Log In', exact: true }).waitFor();
    await expect(site.pageErrors(page)).toEqual([]);
  });

  it(`loads at most ${PERSONAL_BUDGET_KB} KB of script for a signed-in member's /personal, and no page's own chunks over their budget`, async () => {
    const { personal, app } = firstLoads(dist);
    expect(personal.brotliKb).toBeLessThanOrEqual(PERSONAL_BUDGET_KB);
    const { routes } = lazyRoutes(dist, app);
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((r) => r.budgetKb !== null && r.size.brotliKb > r.budgetKb).map((r) => `${r.route} ${r.size.brotliKb.toFixed(1)} KB`)).toEqual([]);

    const page = await site.newPage({ viewport: PHONE });
    // The owner the test above signed up.
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    // Counted from the network, not the browser's cache.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    // Everything /personal loads on a fresh visit: the shell, the hub, the offline reading, on demand or not.
    const scripts = await scriptsOf(page, async () => {
      await page.goto('/personal');
      await waitForShell(page);
      await page.waitForLoadState('networkidle');
    });
    const wire = scripts.filter((s) => s.url.startsWith('/assets/'));
    expect(wire.length).toBeGreaterThan(0);
    expect(wire.reduce((sum, s) => sum + s.wireBytes, 0) / 1024).toBeLessThanOrEqual(PERSONAL_BUDGET_KB);
    await expect(site.pageErrors(page)).toEqual([]);
  });

  it("asks for the startup calls and the page's own chunks with the HTML, and fetches each once", async () => {
    const house = readManifest(dist, 'manifest.json')['src/features/house/HousePage.tsx']?.file;
    expect(house).toBeDefined();
    const page = await site.newPage({ viewport: PHONE });
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    // The hub's own late calls (the bell's count) finish before /house is counted.
    await page.waitForLoadState('networkidle');
    const html = await (await page.request.get('/house')).text();
    expect(html).toContain(`<link rel="modulepreload" crossorigin href="/${house}">`);
    expect(html).toContain(fetchPreload(STARTUP_BATCH_URL));

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const asked: string[] = [];
    const onRequest = (request: { url: () => string }) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/trpc/')) asked.push(`${url.pathname}${url.search}`);
    };
    page.on('request', onRequest);
    await page.goto('/house');
    await page.getByRole('heading', { name: 'House TODO' }).waitFor();
    await page.waitForLoadState('networkidle');
    page.off('request', onRequest);
    // The shell's startup calls are the preloaded request itself: asked once, not again by the app.
    expect(asked.filter((url) => url.startsWith('/trpc/auth.status'))).toEqual([STARTUP_BATCH_URL]);
    expect(asked).toContain(`/${house}`);
    // A preload the page did not use would be fetched a second time (another CORS mode, another address).
    // Only the preloads count: a call the app makes again on purpose (the bell's count read again on a
    // live change, a retry after a failed answer on a loaded machine) is not a preload fetched twice.
    const preloaded = (url: string) => url.startsWith('/assets/') || url === STARTUP_BATCH_URL;
    expect(asked.filter((url, i) => preloaded(url) && asked.indexOf(url) !== i)).toEqual([]);
    await expect(site.pageErrors(page)).toEqual([]);
  });
  it("asks for a page's first calls with its HTML, and the app's own ask is answered by that preload", async () => {
    const page = await site.newPage({ viewport: PHONE });
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    await page.waitForLoadState('networkidle');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    for (const [address, calls] of Object.entries(FIRST_PAGE_CALLS)) {
      const url = batchUrl(calls ?? []);
      expect(await (await page.request.get(address)).text()).toContain(fetchPreload(url));
      const asked: string[] = [];
      const onRequest = (request: { url: () => string }) => {
        const at = new URL(request.url());
        if (at.pathname.startsWith('/trpc/')) asked.push(`${at.pathname}${at.search}`);
      };
      page.on('request', onRequest);
      await page.goto(address);
      await page.locator('main h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      page.off('request', onRequest);
      // Once: the preload, used by the app's own batch (another address or CORS mode would ask again).
      expect([address, asked.filter((u) => u === url).length]).toEqual([address, 1]);
    }
    await expect(site.pageErrors(page)).toEqual([]);
  });
});
