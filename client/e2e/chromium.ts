/** Finding and starting the Chromium the browser tests drive (harness.ts, global-setup.ts). */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';

function onPath(name: string): string | null {
  try {
    const found = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    return found || null;
  } catch {
    return null;
  }
}

/** CHROMIUM_PATH, then /usr/bin/chromium, then a chromium on the PATH. */
export function findChromium(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'];
  for (const candidate of candidates) if (candidate && fs.existsSync(candidate)) return candidate;
  return onPath('chromium') ?? onPath('chromium-browser');
}

export const chromiumPath = findChromium();
export const missingReason = chromiumPath ? null : 'no Chromium found (set CHROMIUM_PATH, or install /usr/bin/chromium)';

const launchOptions = () => {
  if (!chromiumPath) throw new Error(missingReason ?? 'no Chromium');
  return {
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  };
};

/** A Chromium of its own (a test that needs one apart from the run's shared browser). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch(launchOptions());
}

/** The run's shared Chromium, as a browser server the test files connect to; null without Chromium. */
export function launchBrowserServer(): Promise<BrowserServer> | null {
  return chromiumPath ? chromium.launchServer(launchOptions()) : null;
}

/** Connects to the run's shared Chromium (global-setup.ts), or launches one when there is none. */
export function connectBrowser(endpoint: string): Promise<Browser> {
  return endpoint ? chromium.connect(endpoint) : launchBrowser();
}
