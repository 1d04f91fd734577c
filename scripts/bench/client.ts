/**
 * npm run bench:client - builds the client and prints the JavaScript each kind of page loads, in KB
 * on the wire (brotli quality 11, as the build's .br files the server sends; gzip beside it), against
 * the budgets of client/first-load.ts (met / MISSED; the browser test client/e2e/first-load.test.ts
 * holds the same budgets):
 *   - the prerendered /about page (its own build, no framework on first load): <= 40 KB,
 *   - the app shell every other page starts with: <= 100 KB,
 *   - a signed-in member's /personal, everything it loads: <= 120 KB,
 *   - each lazy route (its chunk plus the static imports the shell has not loaded): <= 20 KB, but for
 *     the tower game and the recipe pages.
 * Then, per page (issue 53), the scripts its first load requests before the load event and the
 * JavaScript it evaluates before it is interactive (uncompressed KB), beside the figures before issue 53
 * and the goal. Then the bundle report: every chunk of the shell and of /about with its packages (each package's
 * share of the chunk's brotli bytes, by its minified bytes), and the packages found in more than one
 * route chunk. Bytes from a real page load in Chromium: npm run bench:lighthouse ("JS on the wire").
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ABOUT_BUDGET_KB,
  ABOUT_REPORT,
  APP_REPORT,
  PERSONAL_BUDGET_KB,
  SHELL_BUDGET_KB,
  compressedSize,
  firstLoads,
  lazyRoutes,
  packagesOf,
  readReport,
  type FirstLoad,
} from '../../client/first-load.ts';
import { START_EVALUATED_BUDGET_KB, START_SCRIPTS_BUDGET, pageStarts } from '../../client/start-hints.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const clientDir = path.join(root, 'client');
const dist = path.join(clientDir, 'dist');

if (!process.argv.includes('--no-build')) {
  console.log('Building the client...');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: clientDir, stdio: 'inherit' });
}
const { about, shell, personal, app } = firstLoads(dist);
const { routes, onDemand } = lazyRoutes(dist, app);
const appReport = readReport(dist, APP_REPORT);
const aboutReport = readReport(dist, ABOUT_REPORT);

const kb = (n: number) => `${n.toFixed(1)} KB`;
const verdict = (load: FirstLoad, budget: number) => `budget <= ${budget} KB br: ${load.brotliKb <= budget ? 'met' : 'MISSED'}`;
const line = (label: string, load: FirstLoad, budget: number) =>
  console.log(`${label.padEnd(44)} ${kb(load.brotliKb).padStart(9)} br ${kb(load.gzipKb).padStart(9)} gzip  (${verdict(load, budget)})`);

console.log('\nBudgets (JavaScript on the wire, brotli):');
line('/about, first load', about, ABOUT_BUDGET_KB);
line('app shell, any other page', shell, SHELL_BUDGET_KB);
line("/personal signed in, everything it loads", personal, PERSONAL_BUDGET_KB);
const over = routes.filter((r) => r.budgetKb !== null && r.size.brotliKb > r.budgetKb);
console.log(`${'route chunks beyond the shell'.padEnd(44)} ${String(routes.length).padStart(9)} routes  (budget <= 20 KB br each but tower and recipes: ${over.length === 0 ? 'met' : `MISSED by ${over.map((r) => r.route).join(', ')}`})`);
for (const r of routes) {
  const note = r.budgetKb === null ? '(no budget)' : r.size.brotliKb <= r.budgetKb ? 'met' : 'MISSED';
  console.log(`    ${kb(r.size.brotliKb).padStart(9)} br ${kb(r.size.gzipKb).padStart(9)} gzip  ${r.route}  ${note}`);
}
console.log(`chunks a page loads on demand (no budget): ${onDemand.length}`);
for (const r of onDemand) console.log(`    ${kb(r.size.brotliKb).padStart(9)} br ${kb(r.size.gzipKb).padStart(9)} gzip  ${r.route}`);

/**
 * Measured on the build before issue 53 (main at 4599ad2, the same reading of its build): the app also
 * imported the offline reading, and for members the bell and the live feed, as it started; a first
 * visit then imported the hub's, House's and Todo's chunks for the service worker besides (not counted).
 */
const BEFORE_53: Record<string, { scripts: number; evaluatedKb: number }> = {
  '/login': { scripts: 13, evaluatedKb: 381.6 },
  '/personal': { scripts: 12, evaluatedKb: 380.1 },
  '/house': { scripts: 18, evaluatedKb: 389.8 },
  '/personal/pictures': { scripts: 19, evaluatedKb: 403.4 },
  '/personal/recipes': { scripts: 16, evaluatedKb: 422.2 },
  '/house/chores': { scripts: 20, evaluatedKb: 395.3 },
  '/personal/pictures/people': { scripts: 18, evaluatedKb: 405.8 },
  '/personal/pictures/map': { scripts: 11, evaluatedKb: 412.8 },
};
console.log(`\nEach page's start: scripts requested before the load event (goal <= ${START_SCRIPTS_BUDGET}), JavaScript evaluated before interactive (goal <= ${START_EVALUATED_BUDGET_KB} KB uncompressed)`);
for (const start of pageStarts(dist, fs.readFileSync(path.join(clientDir, 'src', 'routes.ts'), 'utf8'))) {
  const before = BEFORE_53[start.page];
  const verdictOf = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log(
    `    ${start.page.padEnd(28)} ${String(start.scripts).padStart(3)} scripts (${verdictOf(start.scripts <= START_SCRIPTS_BUDGET)}; before issue 53: ${before?.scripts ?? '-'})  ${kb(start.evaluatedKb).padStart(9)} evaluated (${verdictOf(start.evaluatedKb <= START_EVALUATED_BUDGET_KB)}; before: ${before ? kb(before.evaluatedKb) : '-'})`,
  );
}

console.log('\nBundle report: the chunks of a first load, by package (share of the brotli bytes)');
const chunkReport = (title: string, files: string[], report: typeof appReport) => {
  console.log(`  ${title}`);
  for (const file of files) {
    console.log(`    ${file}  ${kb(compressedSize(dist, file).brotli / 1024)} br`);
    for (const p of packagesOf(dist, report, file).filter((p) => p.brotliKb >= 0.3)) console.log(`        ${kb(p.brotliKb).padStart(9)}  ${p.name}`);
  }
};
chunkReport('/about', about.files, aboutReport);
chunkReport('app shell', shell.files, appReport);
const later = [...new Set(personal.files)].filter((f) => !shell.files.includes(f));
chunkReport('/personal beyond the shell', later, appReport);

// A library in several chunks outside the shell would be loaded (and paid for) once per route that has it.
const routeFiles = Object.keys(appReport).filter((file) => !shell.files.includes(file));
const seenIn = new Map<string, string[]>();
for (const file of routeFiles) {
  for (const p of packagesOf(dist, appReport, file)) if (p.brotliKb >= 0.5 && !/^(client\/|@site\/|\()/.test(p.name)) seenIn.set(p.name, [...(seenIn.get(p.name) ?? []), file]);
}
console.log('\nLibraries outside the shell, and the chunks that hold them (>= 0.5 KB br):');
for (const [name, files] of [...seenIn].sort((a, b) => b[1].length - a[1].length)) console.log(`    ${name}: ${files.join(', ')}${files.length > 1 ? '  (in more than one chunk)' : ''}`);
