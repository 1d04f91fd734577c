import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { makeMigratedDataDir } from '../../server/src/testing/cli-fixtures.ts';
import { launchBrowserServer } from './chromium.ts';
import { repoRoot } from './paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A DATA_DIR whose PGlite folder (pglite/) is created and migrated, for startServer to copy. */
    migratedDataDir: string;
    /** The run's one Chromium (launched here, a browser server) that every file connects to, or '' without Chromium. */
    browserEndpoint: string;
  }
}

/**
 * The browser tests run against the built client served by the built server. turbo builds both
 * before `test`; when someone runs the e2e config alone on a fresh checkout, build what is missing.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverEntry = path.join(repoRoot, 'server', 'dist', 'index.js');
  const clientIndex = path.join(repoRoot, 'client', 'dist', 'about', 'index.html');
  if (!fs.existsSync(serverEntry)) {
    console.log('[e2e] server/dist is missing; building the server');
    execFileSync('npm', ['run', 'build', '-w', '@site/server'], { cwd: repoRoot, stdio: 'inherit' });
  }
  if (!fs.existsSync(clientIndex)) {
    console.log('[e2e] client/dist is missing; building the client');
    execFileSync('npx', ['vite', 'build'], { cwd: path.join(repoRoot, 'client'), stdio: 'inherit' });
  }
  fs.mkdirSync(path.join(repoRoot, 'test-output', 'screenshots'), { recursive: true });

  // A new PGlite folder costs every server an initdb (a second WebAssembly PostgreSQL, 5-10 s on a
  // busy 2-core box) and then the migrations. Made once here (the server's own migrations, in this
  // process) and copied into each server's fresh DATA_DIR (harness.ts): what the first start leaves,
  // without doing it 40 times. The first start itself is tested in the server's tests
  // (restart.test.ts, backups/backup-live.test.ts).
  const template = await makeMigratedDataDir();
  project.provide('migratedDataDir', template.dir);

  // One Chromium for the whole run: a file connects to it and makes a context per page (its own
  // cookies, storage and service workers), instead of launching and closing a browser of its own
  // (a second or two of a busy 2-core box each, and 150+ MB while two files overlap).
  const browserServer = await launchBrowserServer();
  project.provide('browserEndpoint', browserServer?.wsEndpoint() ?? '');
  return async () => {
    await browserServer?.close();
    template.remove();
  };
}
