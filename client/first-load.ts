import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[] };
export type Manifest = Record<string, ManifestChunk>;

/**
 * The budgets of issue 28, in KB of JavaScript on the wire (brotli, as the server sends it), held by
 * client/e2e/first-load.test.ts and printed by `npm run bench:client` (docs/benchmarks.md).
 */
/** The prerendered /about on a first visit. */
export const ABOUT_BUDGET_KB = 40;
/** The app shell every other page starts with. */
export const SHELL_BUDGET_KB = 100;
/** A signed-in member's /personal: everything it loads. */
export const PERSONAL_BUDGET_KB = 120;
/** A route's own chunks beyond the shell. */
export const ROUTE_BUDGET_KB = 20;
/** The pages allowed past ROUTE_BUDGET_KB: the tower game and the recipe pages. */
export const HEAVY_ROUTES: readonly string[] = ['src/features/tower/TowerPage.tsx', 'src/features/tower/ReplayPage.tsx', 'src/features/recipes/RecipesRoute.tsx'];

/** Where the builds write their bundle reports (vite.config.ts): per chunk, each module's minified bytes. */
export const APP_REPORT = '.vite/bundle-report.json';
export const ABOUT_REPORT = '.vite/about-bundle-report.json';
export type BundleReport = Record<string, Record<string, number>>;

export type FirstLoad = { files: string[]; gzipKb: number; brotliKb: number };

/** The keys of `key` and everything it imports statically (what the browser loads before it runs). */
export function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) staticClosure(manifest, dep, seen);
  return seen;
}

export function readManifest(dist: string, name: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(dist, '.vite', name), 'utf8')) as Manifest;
}

const sizes = new Map<string, { gzip: number; brotli: number }>();

/** A file's gzip (level 9) and brotli (quality 11) bytes, as client/precompress.ts writes them. */
export function compressedSize(dist: string, file: string): { gzip: number; brotli: number } {
  const key = path.join(dist, file);
  let size = sizes.get(key);
  if (!size) {
    const bytes = fs.readFileSync(key);
    size = { gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length };
    sizes.set(key, size);
  }
  return size;
}

/** The JavaScript files of `keys` with their gzip and brotli sizes together. */
export function sizeOf(dist: string, manifest: Manifest, keys: Iterable<string>): FirstLoad {
  const files = [...new Set([...keys].map((key) => manifest[key]?.file))].filter((file): file is string => file?.endsWith('.js') ?? false);
  let gzip = 0;
  let brotli = 0;
  for (const file of files) {
    const size = compressedSize(dist, file);
    gzip += size.gzip;
    brotli += size.brotli;
  }
  return { files, gzipKb: gzip / 1024, brotliKb: brotli / 1024 };
}

/** The app's entry, and the modules it imports once the first page has loaded and the browser is idle (App.tsx: the offline reading). */
export const SHELL_ENTRY = 'index.html';
export const SHELL_LAZY_AT_START: readonly string[] = ['src/lib/persist.ts'];
export const HUB_ROUTE = 'src/features/hub/HubPage.tsx';

/** The first load of the public About page (its own build) and of the app shell every other page starts with. */
export function firstLoads(dist: string): { about: FirstLoad; shell: FirstLoad; personal: FirstLoad; app: Manifest } {
  const about = readManifest(dist, 'about-manifest.json');
  const app = readManifest(dist, 'manifest.json');
  if (!about['about/index.html'] || !app[SHELL_ENTRY]) throw new Error(`${dist} has no about/index.html or index.html entry: build the client`);
  const shellKeys = staticClosure(app, SHELL_ENTRY);
  const personalKeys = new Set(shellKeys);
  for (const key of [...SHELL_LAZY_AT_START, HUB_ROUTE]) if (app[key]) staticClosure(app, key, personalKeys);
  return {
    about: sizeOf(dist, about, staticClosure(about, 'about/index.html')),
    shell: sizeOf(dist, app, shellKeys),
    personal: sizeOf(dist, app, personalKeys),
    app,
  };
}

/** The pages' chunks: what the shell imports lazily (routes.ts), but the modules it loads at start. */
export function routeKeys(app: Manifest): string[] {
  const lazy = new Set<string>();
  for (const key of staticClosure(app, SHELL_ENTRY)) for (const dep of app[key]?.dynamicImports ?? []) lazy.add(dep);
  return [...lazy].filter((key) => !SHELL_LAZY_AT_START.includes(key));
}

export type LazyChunk = { route: string; size: FirstLoad; budgetKb: number | null };

/**
 * Each lazy route (its chunk plus what it imports statically that the shell has not loaded), with its
 * budget; then the chunks loaded on demand inside a page (a form's checks, a picture's EXIF reader).
 */
export function lazyRoutes(dist: string, app: Manifest): { routes: LazyChunk[]; onDemand: LazyChunk[] } {
  const shellKeys = staticClosure(app, SHELL_ENTRY);
  const pages = new Set(routeKeys(app));
  const sized = (key: string): LazyChunk => {
    const route = app[key]?.src ?? key;
    const budgetKb = pages.has(key) && !HEAVY_ROUTES.includes(route) ? ROUTE_BUDGET_KB : null;
    return { route, size: sizeOf(dist, app, [...staticClosure(app, key)].filter((k) => !shellKeys.has(k))), budgetKb };
  };
  const bySize = (a: LazyChunk, b: LazyChunk) => b.size.brotliKb - a.size.brotliKb;
  const dynamic = Object.keys(app).filter((key) => app[key]?.isDynamicEntry && !SHELL_LAZY_AT_START.includes(key));
  return { routes: dynamic.filter((k) => pages.has(k)).map(sized).sort(bySize), onDemand: dynamic.filter((k) => !pages.has(k)).map(sized).sort(bySize) };
}

/** The package (or folder of this repository) a module of the build comes from. */
export function ownerOf(id: string): string {
  const clean = id.replace(/^\0/, '').split('?')[0] ?? id;
  const modules = clean.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [first = '', second = ''] = clean.slice(modules + 'node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  const inRepo = clean.match(/\/(client|contracts|game-engine|server)\/src\/(.*)$/);
  if (!inRepo) return clean.startsWith('vite/') || !clean.includes('/') ? '(build runtime)' : clean;
  const [area, rest = ''] = [inRepo[1], inRepo[2] ?? ''];
  const parts = rest.split('/');
  if (area === 'client') return `client/${parts[0] === 'features' ? `features/${parts[1]}` : parts.length > 1 ? parts[0] : rest}`;
  return `@site/${area}${parts.length > 1 ? `/${parts[0]}` : ''}`;
}

/** A chunk's brotli bytes shared out among the packages of its modules, by their minified bytes. */
export function packagesOf(dist: string, report: BundleReport, file: string): { name: string; brotliKb: number }[] {
  const modules = report[file] ?? {};
  const total = Object.values(modules).reduce((sum, n) => sum + n, 0);
  if (total === 0) return [];
  const brotli = compressedSize(dist, file).brotli;
  const byPackage = new Map<string, number>();
  for (const [id, bytes] of Object.entries(modules)) byPackage.set(ownerOf(id), (byPackage.get(ownerOf(id)) ?? 0) + bytes);
  return [...byPackage]
    .map(([name, bytes]) => ({ name, brotliKb: (brotli * bytes) / total / 1024 }))
    .sort((a, b) => b.brotliKb - a.brotliKb);
}

export function readReport(dist: string, name: string): BundleReport {
  const file = path.join(dist, name);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as BundleReport) : {};
}
