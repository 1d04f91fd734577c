/**
 * Browser-test harness: real Chromium (playwright-core) against the built client served by the
 * real built server on a fresh database. One server per test file; one Chromium per run
 * (global-setup.ts), which each file connects to, and a context (own cookies) per page:
 *
 *   import { describeInBrowser, useSite } from './harness.ts';
 *   describeInBrowser('my page', () => {
 *     const site = useSite();
 *     it('works', async () => {
 *       const page = await site.newPage();
 *       await page.goto(site.url('/about'));
 *       await site.screenshot(page, 'my-page');
 *     });
 *   });
 *
 * Without Chromium the tests are skipped with a printed reason, except under CI=true, where they fail.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { copyMigratedDataDir } from '../../server/src/testing/cli-fixtures.ts';
import { connectBrowser, missingReason } from './chromium.ts';
import { repoRoot, screenshotDir } from './paths.ts';

export { findChromium, launchBrowser } from './chromium.ts';

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

/** A describe that skips, with a clear reason, when there is no browser; under CI it fails instead. */
export function describeInBrowser(name: string, body: () => void): void {
  if (missingReason && process.env.CI !== 'true') {
    console.warn(`[e2e] skipping "${name}": ${missingReason}`);
    describe.skip(name, body);
    return;
  }
  describe(name, () => {
    if (missingReason) {
      beforeAll(() => {
        throw new Error(`Browser tests cannot run under CI: ${missingReason}`);
      });
    }
    body();
  });
}

async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    // 8443 opens extra hub links; the tests expect an ordinary port.
    if (port !== 0 && port !== 8443) return port;
  }
}

export type RunningServer = { baseUrl: string; dataDir: string; stop: () => Promise<void>; output: () => string };

/**
 * Starts `node server/dist/index.js` on a free port with a fresh temporary data directory, whose
 * database is a copy of the migrated one global-setup.ts made (unless `env` names a database).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-e2e-'));
  const template = inject('migratedDataDir');
  if (template && !env.DATABASE_URL && !env.DATA_DIR) copyMigratedDataDir(template, dataDir);
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'server', 'dist', 'index.js')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CLIENT_DIST: path.join(repoRoot, 'client', 'dist'),
      LOG_LEVEL: 'warn',
      // Cheap hashing: the tests are about the browser, not about argon2's cost.
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      // The pictures' indexing child (faces and things) only where a test is about it (e2e/people.test.ts).
      PEOPLE_INDEXING: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The server exited with code ${child.exitCode} before answering /healthz:\n${log}`);
    }
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer /healthz within 60 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return { baseUrl, dataDir, stop, output: () => log };
}

/**
 * Service workers are blocked unless a test asks for them (e2e/offline.test.ts): the site's worker
 * precaches the whole build in the background and answers the page's requests, which page.route
 * does not see.
 */
export type ContextOptions = { serviceWorkers?: 'allow' | 'block'; /** The IANA zone the browser says it is in (its Intl). */ timezoneId?: string };
export type PageOptions = { viewport?: { width: number; height: number }; context?: BrowserContext } & ContextOptions;

/** What one test file gets: its server, its connection to the run's browser, and helpers bound to them. */
export type SiteHarness = {
  readonly server: RunningServer;
  readonly browser: Browser;
  url: (pathname: string) => string;
  /** A page in its own context (its own cookies) unless a context is given. Alerts are accepted and recorded. */
  newPage: (options?: PageOptions) => Promise<Page>;
  newContext: (viewport?: { width: number; height: number }, options?: ContextOptions) => Promise<BrowserContext>;
  /** Texts of the alerts a page has shown, oldest first. */
  alerts: (page: Page) => string[];
  /** Errors printed to the console or thrown on the page. */
  pageErrors: (page: Page) => string[];
  /**
   * Saves the page as test-output/screenshots/<name>.png for people to look at (the README's and
   * docs/screenshots' pictures come from there) and returns its path; null where none is taken:
   * under CI=true, where nobody looks at them, unless E2E_SCREENSHOTS=1.
   */
  screenshot: (page: Page, name: string, options?: { fullPage?: boolean }) => Promise<string | null>;
};

/** Screenshots are for people: taken on a developer's machine, not under CI (E2E_SCREENSHOTS=1 takes them there too). */
const TAKE_SCREENSHOTS = process.env.CI !== 'true' || process.env.E2E_SCREENSHOTS === '1';

/** Registers beforeAll/afterAll for the enclosing describe: fresh server, browser, cleanup. */
export function useSite(env: Record<string, string> = {}): SiteHarness {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const alertLog = new WeakMap<Page, string[]>();
  const errorLog = new WeakMap<Page, string[]>();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(env), connectBrowser(inject('browserEndpoint'))]);
  });
  afterAll(async () => {
    await Promise.allSettled(contexts.map((c) => c.close()));
    // A connected browser's close() only disconnects: the run's Chromium serves the next file.
    await browser?.close();
    await server?.stop();
  });

  const harness: SiteHarness = {
    get server() {
      if (!server) throw new Error('The server is not running (was useSite called inside a describe?)');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('The browser is not running');
      return browser;
    },
    url: (pathname) => `${harness.server.baseUrl}${pathname}`,
    newContext: async (viewport = DESKTOP, { serviceWorkers = 'block', timezoneId } = {}) => {
      const context = await harness.browser.newContext({ viewport, baseURL: harness.server.baseUrl, serviceWorkers, ...(timezoneId ? { timezoneId } : {}) });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.server.baseUrl });
      contexts.push(context);
      return context;
    },
    newPage: async (options = {}) => {
      const context = options.context ?? (await harness.newContext(options.viewport, options));
      const page = await context.newPage();
      const alerts: string[] = [];
      const errors: string[] = [];
      alertLog.set(page, alerts);
      errorLog.set(page, errors);
      page.on('dialog', (dialog) => {
        alerts.push(dialog.message());
        void dialog.accept();
      });
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      return page;
    },
    alerts: (page) => alertLog.get(page) ?? [],
    pageErrors: (page) => errorLog.get(page) ?? [],
    screenshot: async (page, name, options = {}) => {
      if (!TAKE_SCREENSHOTS) return null;
      fs.mkdirSync(screenshotDir, { recursive: true });
      const file = path.join(screenshotDir, `${name}.png`);
      if (options.fullPage) {
        // A whole-page capture of a scrolled page would catch the navbar slid away mid-scroll.
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.waitForFunction(() => !document.querySelector('.navbar-hidden'), undefined, { timeout: 2000 }).catch(() => undefined);
        await page.waitForTimeout(250);
      }
      await page.screenshot({ path: file, fullPage: options.fullPage ?? false });
      return file;
    },
  };
  return harness;
}

/* ---------- steps many tests share ---------- */

/**
 * Waits until the shell's loading cover is gone (the three startup calls answered) and, on the
 * prerendered /about, until React has taken the page over (it hydrates after the first load).
 */
export async function waitForShell(page: Page): Promise<void> {
  await page.locator('[data-testid="navbar"]').waitFor();
  await page.waitForFunction(() => !document.querySelector('.loading-cover:not(.done)') && !document.querySelector('[data-hydrating]'));
}

/**
 * Waits until the site's service worker is active and controls the page (Workbox claims open pages
 * when it activates), and returns its script's address. A document still loading when the worker
 * claims is not claimed (the Service Workers spec skips a client not yet execution-ready) and stays
 * uncontrolled: a navigation during the first install hits that window. The page is then reloaded
 * once, as a person would, and is controlled from that load.
 */
export async function serviceWorkerControls(page: Page): Promise<string> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const controlled = () => navigator.serviceWorker.controller !== null;
  try {
    await page.waitForFunction(controlled, undefined, { timeout: 5_000 });
  } catch {
    console.log(`[service worker] ${page.url()} loaded while the worker was activating; reloaded once to be controlled`);
    await page.reload();
    await waitForShell(page);
    await page.waitForFunction(controlled, undefined, { timeout: 30_000 });
  }
  return page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '');
}

export async function signUp(page: Page, name: string, password: string): Promise<void> {
  await page.goto('/login');
  await waitForShell(page);
  const panel = page.locator('form', { has: page.getByRole('heading', { name: 'Create Account' }) });
  await panel.getByLabel('Name').fill(name);
  await panel.getByLabel('Password', { exact: true }).fill(password);
  await panel.getByLabel('Confirm Password').fill(password);
  await panel.getByRole('button', { name: 'Make Account' }).click();
}

export async function logIn(page: Page, name: string, password: string): Promise<void> {
  await page.goto('/login');
  await waitForShell(page);
  const panel = page.locator('form', { has: page.getByRole('heading', { name: 'Log In' }) });
  await panel.getByLabel('Name').fill(name);
  await panel.getByLabel('Password').fill(password);
  await panel.getByRole('button', { name: 'Login' }).click();
}

/**
 * Waits for the hub's welcome popup (it opens once its query answers, after the hub is drawn) and
 * closes it: for now (OK), or for good (Cancel, waiting until the server saved that).
 */
export async function closeWelcome(page: Page, choice: 'OK' | 'Cancel' = 'OK'): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Welcome to the hub' });
  await dialog.waitFor();
  const saved = choice === 'Cancel' ? page.waitForResponse((r) => r.url().includes('settings.dismissSplash') && r.ok()) : undefined;
  await dialog.getByRole('button', { name: choice === 'OK' ? 'Show again next time' : "Don't show again" }).click();
  await saved;
  await dialog.waitFor({ state: 'detached' });
}

/**
 * The first account on a fresh server becomes the owner: signs it up, waits for the hub and
 * dismisses the welcome popup for good, as most browser tests start.
 */
export async function signUpOwner(page: Page, name = 'owner', password = 'owner-password'): Promise<void> {
  await signUp(page, name, password);
  await page.waitForURL('**/personal');
  await waitForShell(page);
  await closeWelcome(page, 'Cancel');
}

/** A new owner's page (signed up in a context of its own) open at `pathname`, the shell ready. */
export async function ownerOn(site: SiteHarness, pathname: string, viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
  const page = await site.newPage({ viewport });
  await signUpOwner(page);
  await page.goto(pathname);
  await waitForShell(page);
  return page;
}

const require = createRequire(import.meta.url);

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] };

/** Runs axe-core in the page and returns the serious and critical violations. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Runs axe-core in the page and returns every violation, whatever its impact (a test names the rules it holds). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol: the site's CSP (rightly) refuses inline script tags.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations;
}

export { expect };
