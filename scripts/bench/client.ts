/**
 * npm run bench:client - builds the client and prints the JavaScript each kind of page loads first,
 * in KB compressed as the server sends it (the build's .br and .gz files; see client/first-load.ts):
 *   - the prerendered /about page (its own build, Preact in place of React): goal <= 40 KB gzip,
 *   - the app shell every other page starts with: goal <= 90 KB gzip,
 *   - each lazy route (its chunk plus the static imports the shell has not loaded yet).
 * Bytes on the wire from a real page load in Chromium: npm run bench:lighthouse ("JS on the wire").
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ABOUT_BUDGET_KB, SHELL_BUDGET_KB, firstLoads, sizeOf, staticClosure } from '../../client/first-load.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const clientDir = path.join(root, 'client');
const dist = path.join(clientDir, 'dist');

if (!process.argv.includes('--no-build')) {
  console.log('Building the client...');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: clientDir, stdio: 'inherit' });
}
const { about, shell, app } = firstLoads(dist);
const shellKeys = staticClosure(app, 'index.html');
const lazy = Object.entries(app)
  .filter(([, chunk]) => chunk.isDynamicEntry)
  .map(([key, chunk]) => ({ route: chunk.src ?? key, size: sizeOf(dist, app, [...staticClosure(app, key)].filter((k) => !shellKeys.has(k))) }))
  .sort((a, b) => b.size.gzipKb - a.size.gzipKb);

const fmt = (kb: number) => `${kb.toFixed(1)} KB`;
const verdict = (kb: number, budget: number) => `(goal <= ${budget} KB gzip: ${kb <= budget ? 'met' : 'MISSED'})`;
console.log('');
console.log(`/about first load: ${fmt(about.gzipKb)} gzip, ${fmt(about.brotliKb)} brotli  ${verdict(about.gzipKb, ABOUT_BUDGET_KB)}`);
for (const file of about.files) console.log(`    ${file}`);
console.log(`app shell first load, any other page: ${fmt(shell.gzipKb)} gzip, ${fmt(shell.brotliKb)} brotli  ${verdict(shell.gzipKb, SHELL_BUDGET_KB)}`);
for (const file of shell.files) console.log(`    ${file}`);
console.log(`lazy routes: ${lazy.length} (gzip JS beyond the shell)`);
for (const entry of lazy) console.log(`    ${fmt(entry.size.gzipKb).padStart(9)}  ${entry.route}`);
