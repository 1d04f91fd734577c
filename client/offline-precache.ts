import { SHELL_ENTRY, SHELL_LAZY_AT_START, staticClosure, type Manifest } from './first-load.ts';
import { OFFLINE_PAGES } from './src/offline-pages.ts';
import { pageModules } from './start-hints.ts';

/**
 * What the service worker precaches, as paths of the build folder: index.html, the shell (the app's
 * entry and what it imports, with its styles), the modules it loads at start (the offline reading) and
 * the OFFLINE_PAGES' chunks; every other page's files are kept by the worker as they load
 * (vite.config.ts). Workbox fetches a precache one file after another (workbox#2528), and
 * the worker is ready only when the last one has arrived, so this stays a handful of files, most of
 * them already in the browser's HTTP cache from the page's own load (hashed names, cached a year).
 */
export function offlinePrecache(app: Manifest, routesSource: string): string[] {
  const pages = pageModules(routesSource);
  const keys = staticClosure(app, SHELL_ENTRY);
  for (const key of SHELL_LAZY_AT_START) staticClosure(app, key, keys);
  for (const href of OFFLINE_PAGES) {
    const key = pages[href];
    if (!key || !app[key]) throw new Error(`the offline page ${href} has no chunk in the build's manifest`);
    staticClosure(app, key, keys);
  }
  const files = new Set<string>();
  for (const key of keys) {
    const chunk = app[key] as (Manifest[string] & { css?: string[] }) | undefined;
    if (!chunk) continue;
    files.add(chunk.file);
    for (const style of chunk.css ?? []) files.add(style);
  }
  return [...files];
}

/** The prerendered About page's HTML, as the build folder names it (the worker answers /about with it offline). */
export const ABOUT_HTML = 'about/index.html';

/**
 * The prerendered About page for the precache: its HTML and the script and styles it loads first (a
 * few KB; React's later takeover, ./src/about-page/hydrate.tsx, is left out: the page reads without
 * it). A member who opened /about before the app's worker was there still opens it offline.
 */
export function aboutPrecache(about: Manifest): string[] {
  const files = new Set<string>([ABOUT_HTML]);
  for (const key of staticClosure(about, ABOUT_HTML)) {
    const chunk = about[key] as (Manifest[string] & { css?: string[] }) | undefined;
    if (!chunk) continue;
    files.add(chunk.file);
    for (const style of chunk.css ?? []) files.add(style);
  }
  return [...files];
}

/** The service worker's own parallel fetch of its precache (imported by sw.js: vite.config.ts), written by the build. */
export const PRECACHE_WARM_FILE = 'precache-warm.js';

/**
 * The script the service worker imports before Workbox's runtime: when it installs, it fetches every
 * file of `urls` (the hashed files of its precache) at once, while Workbox's precache asks for them
 * one after another (workbox#2528), so each of Workbox's requests finds its file in the browser's
 * HTTP cache or joins the request already on its way. The page itself fetches nothing for the
 * worker and evaluates nothing it does not show (issue 53: it used to import the offline pages'
 * chunks, which ran them on the first visit's main thread).
 */
export function precacheWarmScript(urls: readonly string[]): string {
  return `// Made by the build (client/offline-precache.ts): the precache's hashed files, fetched in parallel when the worker installs.
self.addEventListener('install', (event) => {
  const files = ${JSON.stringify(urls)};
  event.waitUntil(Promise.all(files.map((url) => fetch(url, { credentials: 'same-origin' }).then((response) => response.arrayBuffer()).catch(() => undefined))));
});
`;
}
