/**
 * npm run bench:client - builds the client and prints, in gzip KB:
 *   - the JavaScript the prerendered /about page loads first (its entry and every static import),
 *   - the largest lazy route (its chunk plus the static imports the app entry has not loaded yet).
 * Goal: /about at most 100 KB; every member tool behind a lazy route.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[] };
type Manifest = Record<string, ManifestChunk>;

const ABOUT_BUDGET_KB = 100;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const clientDir = path.join(root, 'client');
const dist = path.join(clientDir, 'dist');

function build(): void {
  if (process.argv.includes('--no-build')) return;
  console.log('Building the client...');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: clientDir,
    stdio: 'inherit',
  });
}

function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) staticClosure(manifest, dep, seen);
  return seen;
}

const gzipKb = (file: string) => gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length / 1024;

function jsKb(manifest: Manifest, keys: Iterable<string>): number {
  let total = 0;
  for (const key of keys) {
    const chunk = manifest[key];
    if (chunk?.file.endsWith('.js')) total += gzipKb(chunk.file);
  }
  return total;
}

build();
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
const aboutKey = 'about/index.html';
const appKey = 'index.html';
if (!manifest[aboutKey] || !manifest[appKey]) throw new Error('The manifest has no about/index.html or index.html entry');

const aboutFirst = staticClosure(manifest, aboutKey);
const aboutKb = jsKb(manifest, aboutFirst);
const appFirst = staticClosure(manifest, appKey);
const appKb = jsKb(manifest, appFirst);

const lazy = Object.entries(manifest)
  .filter(([, chunk]) => chunk.isDynamicEntry)
  .map(([key, chunk]) => {
    const extra = [...staticClosure(manifest, key)].filter((k) => !appFirst.has(k));
    return { route: chunk.src ?? key, kb: jsKb(manifest, extra), ownKb: gzipKb(chunk.file) };
  })
  .sort((a, b) => b.kb - a.kb);

const fmt = (kb: number) => `${kb.toFixed(1)} KB`;
console.log('');
console.log(`/about first load (gzip JS): ${fmt(aboutKb)}  (goal <= ${ABOUT_BUDGET_KB} KB: ${aboutKb <= ABOUT_BUDGET_KB ? 'met' : 'MISSED'})`);
for (const key of aboutFirst) console.log(`    ${manifest[key]?.file}`);
console.log(`app shell first load, any other page (gzip JS): ${fmt(appKb)}`);
const largest = lazy[0];
if (largest) console.log(`largest lazy route (gzip JS beyond the shell): ${fmt(largest.kb)}  ${largest.route}`);
console.log(`lazy routes: ${lazy.length}`);
for (const entry of lazy) console.log(`    ${fmt(entry.kb).padStart(9)}  ${entry.route}`);
