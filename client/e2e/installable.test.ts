import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse-pwa';
import { it } from 'vitest';
import { describeInBrowser, expect, findChromium, useSite } from './harness.ts';

/**
 * Lighthouse's own installability audits, from Lighthouse 11 (12 dropped its PWA category): the
 * package `lighthouse-pwa` is npm's alias for lighthouse@11. It runs in a normal Chromium profile
 * (chrome-launcher), where Chromium may offer to install the site, unlike Playwright's incognito
 * contexts. Only the PWA audits run, against the page a visitor opens first in the app.
 */
const AUDITS = ['installable-manifest', 'maskable-icon', 'splash-screen', 'themed-omnibox'] as const;

describeInBrowser('installable: Lighthouse 11 installability audits', () => {
  const site = useSite();

  it('passes installable-manifest (with a maskable icon, splash screen and theme colour)', async () => {
    const chrome = await chromeLauncher.launch({
      chromePath: findChromium() ?? undefined,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    try {
      const started = Date.now();
      const result = await lighthouse(site.url('/login'), { port: chrome.port, logLevel: 'error', output: 'json', onlyAudits: [...AUDITS] });
      const audits = result?.lhr.audits ?? {};
      const scores = Object.fromEntries(AUDITS.map((id) => [id, audits[id]?.score ?? null]));
      console.log(`[installable] Lighthouse ${result?.lhr.lighthouseVersion} in ${Date.now() - started} ms: ${JSON.stringify(scores)}`);
      const failures = (audits['installable-manifest']?.details as { items?: { reason?: string }[] } | undefined)?.items ?? [];
      expect(failures.map((f) => f.reason)).toEqual([]);
      expect(scores).toEqual(Object.fromEntries(AUDITS.map((id) => [id, 1])));
    } finally {
      await chrome.kill();
    }
  });
});
