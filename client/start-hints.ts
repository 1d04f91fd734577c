import fs from 'node:fs';
import path from 'node:path';
import { SHELL_ENTRY, readManifest, staticClosure, type Manifest } from './first-load.ts';

/**
 * What a phone waits for before the first page is painted, asked for as soon as the HTML arrives
 * instead of one after another (each step after the shell's script is a round trip on a slow network):
 *
 * - index.html gets a `preload` of the shell's three startup calls, the exact batch address tRPC
 *   asks for (STARTUP_BATCH_URL), so their answer is there when the shell's script has run (the
 *   offline reading, SHELL_LAZY_AT_START, is not asked for: the app loads it after the load, idle);
 * - ROUTE_PRELOADS holds, per page of routes.ts (by its href), the `<link>`s of that page's chunks
 *   and styles beyond the shell; the server adds them to index.html for an address of that page
 *   (server/src/http/static.ts);
 * - ADDRESS_PRELOADS holds, per page address of src/app/first-page-data.ts, a `preload` of the batch
 *   of calls the page's largest paint waits for, which main.tsx asks for beside the startup calls;
 *   the server adds it for that very address only (a sub-path may show other data).
 */
export const ROUTE_PRELOADS = '.vite/route-preloads.json';
export const ADDRESS_PRELOADS = '.vite/address-preloads.json';

/**
 * The shell's startup calls (app/Shell.tsx: login status, colours, navbar style) as tRPC's batch link
 * asks for them in one GET. client/e2e/first-load.test.ts checks that the shell's call is this one and
 * is answered by the preload (one request, no second).
 */
export const STARTUP_BATCH_URL = '/trpc/auth.status,settings.colors,settings.navbarStyle?batch=1&input=%7B%7D';

export type RoutePreload = { js: string[]; css: string[] };

/** Each page's href in src/routes.ts with the module its lazy import loads (`src/features/...`). */
export function pageModules(routesSource: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of routesSource.matchAll(/'(\/[^']*)':\s*\(\)\s*=>\s*import\('\.\/([^']+)'\)/g)) out[match[1] as string] = `src/${match[2]}`;
  // Every lazy import of the table must be read, else a page would silently go without its hints.
  const imports = routesSource.match(/\(\)\s*=>\s*import\(/g)?.length ?? 0;
  if (imports !== Object.keys(out).length) throw new Error(`routes.ts has ${imports} lazy imports but ${Object.keys(out).length} read as '<href>': () => import('./<module>')`);
  return out;
}

/** The files of `keys` (their JavaScript and their styles), as the page's addresses (`/assets/...`). */
function filesOf(app: Manifest, keys: Iterable<string>): RoutePreload {
  const js = new Set<string>();
  const css = new Set<string>();
  for (const key of keys) {
    const chunk = app[key] as (Manifest[string] & { css?: string[] }) | undefined;
    if (chunk?.file.endsWith('.js')) js.add(`/${chunk.file}`);
    for (const style of chunk?.css ?? []) css.add(`/${style}`);
  }
  return { js: [...js], css: [...css] };
}

const beyond = (app: Manifest, key: string, loaded: Set<string>) => [...staticClosure(app, key)].filter((k) => !loaded.has(k));

/**
 * The `<link>`s that ask for `files` early. `crossorigin` as Vite's own: the module scripts and the
 * stylesheets Vite adds when a chunk is imported are fetched in CORS mode, and a preload is used only
 * by a request of the same mode (else it is fetched twice).
 */
export function preloadLinks(files: RoutePreload): string {
  return [...files.js.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`), ...files.css.map((href) => `<link rel="preload" as="style" crossorigin href="${href}">`)].join('');
}

/**
 * A `preload` of a call's address (`as=fetch`, `crossorigin`: the mode and credentials of the app's
 * fetch, else the call would be fetched a second time).
 */
export const fetchPreload = (url: string) => `<link rel="preload" as="fetch" href="${url.replaceAll('&', '&amp;')}" crossorigin>`;

/**
 * Writes the hints into `dist`'s index.html, ROUTE_PRELOADS and ADDRESS_PRELOADS (`firstCalls`: per
 * page address, the batch address of its first calls); run after the app's build, before compressing.
 */
export async function writeStartHints(dist: string, routesSource: string, firstCalls: Record<string, string>): Promise<void> {
  const app = readManifest(dist, 'manifest.json');
  const shell = staticClosure(app, SHELL_ENTRY);
  const routes: Record<string, string> = {};
  for (const [href, key] of Object.entries(pageModules(routesSource))) {
    if (!app[key]) throw new Error(`routes.ts imports ${key} for ${href}, which the build's manifest does not have`);
    routes[href] = preloadLinks(filesOf(app, beyond(app, key, shell)));
  }
  await fs.promises.writeFile(path.join(dist, ROUTE_PRELOADS), `${JSON.stringify(routes, null, 1)}\n`);
  const addresses = Object.fromEntries(Object.entries(firstCalls).map(([address, url]) => [address, fetchPreload(url)]));
  await fs.promises.writeFile(path.join(dist, ADDRESS_PRELOADS), `${JSON.stringify(addresses, null, 1)}\n`);

  const file = path.join(dist, 'index.html');
  const html = await fs.promises.readFile(file, 'utf8');
  const hints = fetchPreload(STARTUP_BATCH_URL);
  if (!html.includes('</head>')) throw new Error(`${file} has no </head>`);
  await fs.promises.writeFile(file, html.replace('</head>', `${hints}</head>`));
}

/** The pages whose start `npm run bench:client` budgets (issue 53), by their href in routes.ts. */
export const BUDGETED_PAGES: readonly string[] = [
  '/login',
  '/personal',
  '/house',
  '/personal/pictures',
  '/personal/recipes',
  '/house/chores',
  '/personal/pictures/people',
  '/personal/pictures/map',
];
/** Scripts a page requests before its load event: the shell's and the page's own chunks (issue 53: /personal made 20 and more). */
export const START_SCRIPTS_BUDGET = 12;
/** JavaScript a page evaluates before it is interactive, in KB as the browser compiles it (uncompressed): the shell is about 360. */
export const START_EVALUATED_BUDGET_KB = 420;

export type PageStart = { page: string; scripts: number; evaluatedKb: number };

/**
 * What a page's first load asks for and runs before it is interactive, read from the build: the
 * shell (index.html's scripts) and the page's chunk with what it imports beyond the shell (the
 * server's preloads for that page). `atStart`: modules the app also imported at start (before issue 53:
 * the offline reading, the bell and the admins' live count), to print the earlier figures.
 */
export function pageStarts(dist: string, routesSource: string, atStart: readonly string[] = []): PageStart[] {
  const app = readManifest(dist, 'manifest.json');
  const pages = pageModules(routesSource);
  return BUDGETED_PAGES.map((page) => {
    const keys = staticClosure(app, SHELL_ENTRY);
    for (const key of [pages[page] ?? '', ...atStart]) if (app[key]) staticClosure(app, key, keys);
    const files = filesOf(app, keys).js;
    const bytes = files.reduce((sum, file) => sum + fs.statSync(path.join(dist, file)).size, 0);
    return { page, scripts: files.length, evaluatedKb: bytes / 1024 };
  });
}
