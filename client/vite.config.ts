import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, createServer, defineConfig, parseAst, type InlineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
// A relative path: the config loader leaves workspace packages to Node, which cannot run .ts.
import { DEFAULT_COLORS } from '../contracts/src/settings/settings.schemas.ts';
import { SHARE_TARGET, WEB_MANIFEST_BASE_FILE, type WebManifest } from '../contracts/src/settings/web-manifest.ts';
import { SERVER_PREFIXES } from '../contracts/src/server-paths.ts';
import { owner } from './src/owner.config.ts';
import { colorsToCss } from './src/lib/colors.ts';
import { compressBuild } from './precompress.ts';
import { ABOUT_REPORT, APP_REPORT, readManifest } from './first-load.ts';
import { writeStartHints } from './start-hints.ts';
// Types only: the module is loaded through Vite at the end of the build (it imports workspace packages).
import type * as FirstPageData from './src/app/first-page-data.ts';
import { ABOUT_HTML, PRECACHE_WARM_FILE, aboutPrecache, offlinePrecache, precacheWarmScript } from './offline-precache.ts';

const root = path.dirname(fileURLToPath(import.meta.url));
const apiTarget = process.env.API_URL ?? `http://localhost:${process.env.PORT ?? '8080'}`;

/** The manifest of the About page's own build (the app's is .vite/manifest.json; client/first-load.ts reads both). */
const ABOUT_MANIFEST = '.vite/about-manifest.json';

/** The modules of every chunk with the bytes each adds to it (minified), for bench:client's bundle report. */
function bundleReport(fileName: string): Plugin {
  return {
    name: 'site-bundle-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const report: Record<string, Record<string, number>> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        report[chunk.fileName] = Object.fromEntries(Object.entries(chunk.modules).map(([id, module]) => [id, module.renderedLength]));
      }
      this.emitFile({ type: 'asset', fileName, source: JSON.stringify(report) });
    },
  };
}

type Node = { type: string; start: number; end: number; declaration?: Node | null; declarations?: { init?: Node | null }[] };

/**
 * The contracts' schema modules hold declarations only (contracts/package.json says `sideEffects:
 * false`), but a bundler cannot see that `field.optional()` on a schema kept in a constant is pure.
 * So each top-level constant computed by a call is wrapped in an IIFE marked pure: evaluated where
 * it was, dropped when no page uses it. A page that needs an area's messages or rules then leaves its
 * schemas, and the zod runtime, behind (zod's own builders are marked pure: `manualPureFunctions`).
 */
function pureContractSchemas(): Plugin {
  return {
    name: 'site-pure-contract-schemas',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]contracts[\\/]src[\\/][^?]*\.ts$/.test(id)) return null;
      const program = parseAst(code) as unknown as { body: Node[] };
      const inits: Node[] = [];
      for (const statement of program.body) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const { init } of declaration.declarations ?? []) if (init && (init.type === 'CallExpression' || init.type === 'NewExpression')) inits.push(init);
      }
      if (inits.length === 0) return null;
      let out = code;
      for (const init of inits.sort((a, b) => b.start - a.start)) {
        out = `${out.slice(0, init.start)}/* @__PURE__ */ (() => (${out.slice(init.start, init.end)}))()${out.slice(init.end)}`;
      }
      return { code: out, map: null };
    },
  };
}

/** Fills the owner's title and paints the default colours before any script runs (a style attribute, which the CSP allows). */
function pageTemplate(): Plugin {
  return {
    name: 'site-page-template',
    transformIndexHtml(html) {
      return html
        .replaceAll('%SITE_TITLE%', owner.siteTitle)
        .replaceAll('%THEME_COLOR%', DEFAULT_COLORS.menuColor)
        .replace('<html lang="en">', `<html lang="en" style="${colorsToCss(DEFAULT_COLORS)}">`);
    },
  };
}

/**
 * The web app manifest without the owner's saved colours (the server adds them at
 * GET /manifest.webmanifest): the owner's title, the hub as the start page, the icons of `npm run icons`.
 */
function webManifestBase(): WebManifest {
  return {
    id: '/',
    name: owner.siteTitle,
    short_name: owner.siteTitle.length <= 12 ? owner.siteTitle : owner.shortTitle,
    description: owner.tagline,
    start_url: '/personal',
    scope: '/',
    display: 'standalone',
    background_color: DEFAULT_COLORS.backgroundColor,
    theme_color: DEFAULT_COLORS.menuColor,
    // Android's share sheet lists the installed app for photos and videos (the service worker takes the POST: public/share-target-sw.js).
    share_target: SHARE_TARGET,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

function webManifestFile(): Plugin {
  return {
    name: 'site-web-manifest',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: WEB_MANIFEST_BASE_FILE, source: `${JSON.stringify(webManifestBase(), null, 2)}\n` });
    },
  };
}

/** Replaces `marker` in the built page `file` with `html`; a page without it is a broken build. */
async function fillMarker(file: string, marker: string, html: string): Promise<void> {
  const page = await readFile(file, 'utf8');
  if (!page.includes(marker)) throw new Error(`${file} has no ${marker} marker`);
  await writeFile(file, page.replace(marker, html));
}

/**
 * After the app's build: builds the About page on its own (into the same folder), renders it with
 * react-dom/server into dist/about/index.html, so the HTML is the whole page and its first load is a
 * few KB of plain script (src/about-page/start.ts; React hydrates later from its own chunk), renders
 * the shell's loading cover into the app's index.html, writes the app's start hints (start-hints.ts:
 * what the first page needs, asked for with the HTML) and the .br and .gz files of the whole build.
 */
function aboutPage(): Plugin {
  let outDir = path.join(root, 'dist');
  let mode = 'production';
  return {
    name: 'site-about-page',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      mode = config.mode;
    },
    async closeBundle() {
      const about: InlineConfig = {
        configFile: false,
        root,
        mode,
        logLevel: 'warn',
        plugins: [react(), pageTemplate(), pureContractSchemas(), bundleReport(ABOUT_REPORT)],
        build: {
          outDir,
          emptyOutDir: false,
          manifest: ABOUT_MANIFEST,
          target: 'es2022',
          rolldownOptions: { treeshake: { manualPureFunctions: ['z'] }, input: { about: path.join(root, 'about', 'index.html') } },
        },
      };
      await build(about);
      let firstCalls: Record<string, string> = {};
      const server = await createServer({
        configFile: false,
        root,
        logLevel: 'error',
        server: { middlewareMode: true, hmr: false, ws: false },
        appType: 'custom',
      });
      try {
        const mod = (await server.ssrLoadModule('/src/about-page/prerender.tsx')) as { prerenderAbout: () => string; prerenderCover: () => string };
        await fillMarker(path.join(outDir, 'about', 'index.html'), '<!--prerendered-about-->', mod.prerenderAbout());
        await fillMarker(path.join(outDir, 'index.html'), '<!--loading-cover-->', mod.prerenderCover());
        // The batch address of each page's first calls, as main.tsx asks for them (the server preloads it).
        const first = (await server.ssrLoadModule('/src/app/first-page-data.ts')) as typeof FirstPageData;
        firstCalls = Object.fromEntries(Object.entries(first.FIRST_PAGE_CALLS).map(([address, calls]) => [address, first.batchUrl(calls ?? [])]));
      } finally {
        await server.close();
      }
      await writeStartHints(outDir, await readFile(path.join(root, 'src', 'routes.ts'), 'utf8'), firstCalls);
      await compressBuild(outDir);
    },
  };
}

/**
 * Paths the server answers itself: a navigation there must reach the network, never the app's shell
 * (SERVER_PREFIXES, the HTTP routes of the permission table, the live feed,
 * the prerendered About page and the static trade-game images).
 */
const NOT_THE_APP = [
  new RegExp(`^(${[...SERVER_PREFIXES, '/events', '/about', '/trade-game'].join('|')})(/|$)`),
  /^\/manifest\.webmanifest$/,
  /^\/sw\.js$/,
  /^\/share-target$/,
  /^\/workbox-/,
];

/**
 * The service worker (Workbox's generateSW through vite-plugin-pwa): precaches the shell and the
 * offline pages (client/offline-precache.ts: a handful of files, so a phone is ready to work offline
 * within a couple of seconds of its first visit), keeps every other file of /assets as the pages load
 * it, answers navigations with the cached index.html when the network is gone, and waits after an
 * update until the page asks it to take over ("Reload for the new version", src/lib/pwa.ts). The
 * browser's first worker has no older one to wait for: it activates as soon as its precache is in and
 * claims the open pages. It runs after the About page's build (closeBundleOrder 'post'), so the build
 * folder and its manifest are complete when it is listed. The manifest comes from the server (the
 * owner's colours).
 */
function serviceWorker() {
  let outDir = path.join(root, 'dist');
  const plugins = VitePWA({
    strategies: 'generateSW',
    registerType: 'prompt',
    injectRegister: false,
    manifest: false,
    integration: { closeBundleOrder: 'post' },
    workbox: {
      globPatterns: ['index.html', ABOUT_HTML, 'assets/**/*.{js,css}'],
      // One file: the worker's runtime is not a second round trip before the precache starts.
      inlineWorkboxRuntime: true,
      manifestTransforms: [
        async (entries) => {
          const wanted = new Set([
            'index.html',
            ...offlinePrecache(readManifest(outDir, 'manifest.json'), await readFile(path.join(root, 'src', 'routes.ts'), 'utf8')),
            ...aboutPrecache(readManifest(outDir, path.basename(ABOUT_MANIFEST))),
          ]);
          const manifest = entries.filter((entry) => wanted.has(entry.url));
          const missing = [...wanted].filter((url) => !manifest.some((entry) => entry.url === url));
          if (missing.length > 0) throw new Error(`the service worker's precache misses ${missing.join(', ')}`);
          // The hashed files (no revision: their name is one), fetched in parallel by the worker as it installs.
          await writeFile(path.join(outDir, PRECACHE_WARM_FILE), precacheWarmScript(manifest.filter((entry) => !entry.revision).map((entry) => entry.url)));
          return { manifest, warnings: [] };
        },
      ],
      // Hashed names are their own revision.
      dontCacheBustURLsMatching: /^assets\//,
      maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      navigateFallback: '/index.html',
      navigateFallbackDenylist: NOT_THE_APP,
      clientsClaim: true,
      skipWaiting: false,
      cleanupOutdatedCaches: true,
      // Web Push: shows a pushed notification and opens its page on click (public/push-sw.js); the
      // share sheet's files, kept for the upload page (public/share-target-sw.js: before Workbox's
      // own fetch listener, which answers GETs only); the precache fetched in parallel at install
      // (PRECACHE_WARM_FILE, written below: its install listener runs before Workbox's).
      importScripts: ['push-sw.js', 'share-target-sw.js', PRECACHE_WARM_FILE],
      runtimeCaching: [
        // The other pages' files, kept as they load (a hashed name never changes): a page opened online
        // opens offline too. The oldest go first, so old deploys' files do not pile up.
        {
          urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
          handler: 'CacheFirst',
          options: { cacheName: 'assets', expiration: { maxEntries: 200, purgeOnQuotaError: true } },
        },
        // The prerendered About page: from the network, else the copy of the last visit, else the
        // build's own copy from the precache (a member who opened /about before the worker was there).
        {
          urlPattern: ({ request, url }) => request.mode === 'navigate' && /^\/about(\/|$)/.test(url.pathname),
          handler: 'NetworkFirst',
          options: { cacheName: 'about-page', networkTimeoutSeconds: 4, expiration: { maxEntries: 4 }, precacheFallback: { fallbackURL: ABOUT_HTML } },
        },
      ],
    },
  });
  // The build folder as Vite resolved it (a build with --outDir lists that one).
  const outDirOf: Plugin = {
    name: 'site-precache-out-dir',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
  };
  return [outDirOf, ...plugins];
}

/**
 * react-router 7 ships a development and a production build, and its package's exports name only the
 * development one (the same code with its warnings on: route checks and console warnings run on each
 * navigation). A build takes the production one.
 */
const reactRouterProduction = [
  { find: /^react-router$/, replacement: path.join(root, '../node_modules/react-router/dist/production/index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(root, '../node_modules/react-router/dist/production/dom-export.mjs') },
];

/**
 * The chunks of a page's first load (issue 53): rolldown's automatic splitting made a chunk of every
 * module shared by another set of pages (components and rules of 0.3-3 KB each), so /house/chores
 * asked for 17 scripts before its load event, each a request on a phone's network. Grouped instead:
 * - `app`: everything the shell's entry imports statically ($initial), into the shell's own chunk
 *   (React and react-query had chunks of their own, shared with the pages);
 * - `parts`: the shared components, lib modules and contracts' `*.rules.ts` (each <= 6 KB) that two or
 *   more chunks use, in one chunk that the pages share (about 4 KB brotli);
 * - `<area>-parts`: a feature's modules that two or more of its chunks use (the pictures' viewer and
 *   tiles, the plan's fields), beside its pages.
 * Neither takes its modules' dependencies along (`includeDependenciesRecursively: false`), so what
 * the shell has stays in the shell and a group does not pull zod or the offline queue into every page.
 * bench:client prints the scripts each page asks for before its load and the JavaScript it evaluates.
 */
const SHARED_PART = /[\\/]client[\\/]src[\\/](components|lib)[\\/]|[\\/]contracts[\\/]src[\\/].*\.rules\.ts$/;
const FEATURE_PART = /[\\/]client[\\/]src[\\/]features[\\/]([^\\/]+)[\\/](?![^\\/]*(Page|Route)\.tsx$)[^\\/]*\.tsx?$/;

export default defineConfig(({ command }) => ({
  plugins: [react(), pageTemplate(), pureContractSchemas(), webManifestFile(), bundleReport(APP_REPORT), aboutPage(), serviceWorker()],
  resolve: { alias: command === 'build' ? reactRouterProduction : [] },
  build: {
    manifest: true,
    target: 'es2022',
    rolldownOptions: {
      treeshake: { manualPureFunctions: ['z'] },
      input: { app: path.join(root, 'index.html') },
      output: {
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 3, includeDependenciesRecursively: false },
            { name: 'parts', test: SHARED_PART, minShareCount: 2, maxModuleSize: 6000, priority: 2, includeDependenciesRecursively: false },
            { name: (id) => (FEATURE_PART.exec(id)?.[1] ?? 'feature') + '-parts', test: FEATURE_PART, minShareCount: 2, priority: 1, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/trpc': apiTarget,
      '/api': apiTarget,
      '/private': apiTarget,
      '/healthz': apiTarget,
      '/events': apiTarget,
      '/manifest.webmanifest': apiTarget,
    },
  },
}));
