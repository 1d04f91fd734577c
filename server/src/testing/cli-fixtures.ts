import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findRepoRoot } from '../config.ts';

/**
 * How the tests run the command-line tools (`npm run user`, `backup`, `media`, `pictures`,
 * `recipes`, `5etools`, the SDK example) as separate processes: a plain `node` of an esbuild bundle
 * of the tool, made once per test run by the suite's global setup with the server's own build
 * options (server/build-options.mjs), instead of `tsx`, whose loader resolves and transforms every
 * module of the server again in each process (about 3.5 s of CPU more per command on the 2-core CI
 * machine; the tests start about 60). The bundle is the same source: what `npm run user` runs
 * through tsx. Outside a run that made the bundles (one test file run on its own through another
 * config), the tool runs through tsx as before.
 */

/** The tools' sources, by name, from the repository root. */
export const CLI_SOURCES = {
  user: 'scripts/src/user/cli.ts',
  recipes: 'scripts/src/recipes/cli.ts',
  pictures: 'scripts/src/pictures/cli.ts',
  backup: 'scripts/src/backup/cli.ts',
  media: 'scripts/src/media/cli.ts',
  fivetools: 'scripts/src/fivetools/cli.ts',
  sdkExample: 'scripts/src/sdk/example.ts',
} as const;

/** Each tool's source file (absolute) -> its bundle (absolute). */
export type CliBundles = Record<string, string>;

type BundleEntries = (o: { entries: Record<string, string>; outdir: string; external?: string[] }) => Promise<Record<string, string>>;

const root = findRepoRoot(path.dirname(new URL(import.meta.url).pathname));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Bundles every tool into a folder of its own under server/dist (where the dependencies resolve); `remove` deletes it. */
export async function bundleClis(): Promise<{ bundles: CliBundles; remove: () => void }> {
  const serverDir = path.join(root, 'server');
  const outdir = fs.mkdtempSync(path.join(serverDir, 'dist', 'test-clis-'));
  const remove = () => fs.rmSync(outdir, { recursive: true, force: true });
  try {
    const { bundleEntries } = (await import(pathToFileURL(path.join(serverDir, 'build-options.mjs')).href)) as { bundleEntries: BundleEntries };
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'scripts', 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    const external = Object.keys(manifest.dependencies ?? {}).filter((name) => !name.startsWith('@site/'));
    const sources = Object.fromEntries(Object.entries(CLI_SOURCES).map(([name, source]) => [name, path.join(root, source)]));
    const made = await bundleEntries({ entries: sources, outdir, external });
    const bundles = Object.fromEntries(Object.entries(sources).map(([name, source]) => [source, made[name] as string]));
    return { bundles, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** Node's arguments that start the server: the build (server/dist/index.js, which `npm test` makes first), else its source through tsx. */
export function serverEntryArgs(): string[] {
  const built = path.join(root, 'server', 'dist', 'index.js');
  return fs.existsSync(built) ? [built] : ['--import', tsx, path.join(root, 'server', 'src', 'index.ts')];
}

/** The program and arguments that run the tool `source` (absolute path) with `args`: its bundle when `bundles` has one, else tsx. */
export function cliCommand(source: string, args: string[], bundles: CliBundles = {}): { file: string; args: string[] } {
  const bundle = bundles[source];
  if (bundle && fs.existsSync(bundle)) return { file: process.execPath, args: [bundle, ...args] };
  return { file: process.execPath, args: ['--import', tsx, source, ...args] };
}

/**
 * A DATA_DIR whose embedded database (DATA_DIR/pglite) is created and migrated, made once per run
 * by a global setup: a new PGlite folder costs an initdb (a second WebAssembly PostgreSQL, 5-10 s
 * on a busy 2-core box) and every migration, in each tool process or test that opens it first.
 * The first start itself is tested in the server's tests (restart.test.ts, backup-live.test.ts).
 */
export async function makeMigratedDataDir(): Promise<{ dir: string; remove: () => void }> {
  const { createDb } = await import('../db/database.ts');
  const { migrateToLatest } = await import('../migrations.ts');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-test-data-template-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const handle = await createDb({ kind: 'pglite', dataDir: dir });
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    return { dir, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** Copies the migrated embedded database of `template` (makeMigratedDataDir) into the DATA_DIR `into`. */
export function copyMigratedDataDir(template: string, into: string): void {
  fs.cpSync(path.join(template, 'pglite'), path.join(into, 'pglite'), { recursive: true });
}
