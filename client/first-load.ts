import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[] };
export type Manifest = Record<string, ManifestChunk>;

/** The budgets of issue 24, in gzip KB of JavaScript a page loads before anything else. */
export const ABOUT_BUDGET_KB = 40;
export const SHELL_BUDGET_KB = 90;

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

/** The JavaScript files of `keys` with their gzip (level 9) and brotli (quality 11) sizes together. */
export function sizeOf(dist: string, manifest: Manifest, keys: Iterable<string>): FirstLoad {
  const files = [...keys].map((key) => manifest[key]?.file).filter((file): file is string => file?.endsWith('.js') ?? false);
  let gzip = 0;
  let brotli = 0;
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(dist, file));
    gzip += gzipSync(bytes, { level: 9 }).length;
    brotli += brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { files, gzipKb: gzip / 1024, brotliKb: brotli / 1024 };
}

/** The first load of the public About page (its own build) and of the app shell every other page starts with. */
export function firstLoads(dist: string): { about: FirstLoad; shell: FirstLoad; app: Manifest } {
  const about = readManifest(dist, 'about-manifest.json');
  const app = readManifest(dist, 'manifest.json');
  if (!about['about/index.html'] || !app['index.html']) throw new Error(`${dist} has no about/index.html or index.html entry: build the client`);
  return {
    about: sizeOf(dist, about, staticClosure(about, 'about/index.html')),
    shell: sizeOf(dist, app, staticClosure(app, 'index.html')),
    app,
  };
}
