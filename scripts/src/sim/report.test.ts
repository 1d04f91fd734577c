import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_PATHS } from '@site/game-engine';
import type { BalanceReport } from './report.ts';
import { reportFiles } from './report-cli.ts';
import { chartIds } from './report-html.ts';
import { playRange } from './games.ts';
import { runSimulation } from './simulate.ts';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const folders: string[] = [];

afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-report-'));
  folders.push(dir);
  return dir;
}

function sim(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.INIT_CWD;
  delete env.PUBLIC_URL;
  const result = spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8', env, timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Writes a report into a new folder and reads its three files back. */
function report(...args: string[]): { dir: string; json: string; csv: string; html: string; stdout: string; stderr: string } {
  const dir = tempDir();
  const run = sim('report', ...args, '--out', dir);
  expect(run.stderr).not.toMatch(/Error/);
  expect(run.status).toBe(0);
  const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
  return { dir, json: read('report.json'), csv: read('games.csv'), html: read('report.html'), stdout: run.stdout, stderr: run.stderr };
}

const ARGS = ['--seed', 'lab', '--games', '40', '--policy', 'greedy', '--policy', 'random', '--set', 'enemies.drone.hp=3', '--compare'];

describe('sim report', () => {
  let one: ReturnType<typeof report>;
  let two: ReturnType<typeof report>;
  let parsed: BalanceReport;

  beforeAll(() => {
    one = report(...ARGS, '--workers', '1');
    two = report(...ARGS, '--workers', '2');
    parsed = JSON.parse(one.json) as BalanceReport;
  }, 300_000);

  it('writes byte-identical report.json, games.csv and report.html with 1 worker and with 2', () => {
    expect(two.json).toBe(one.json);
    expect(two.csv).toBe(one.csv);
    expect(two.html).toBe(one.html);
    expect(one.stderr).toContain('on 1 worker,');
    expect(two.stderr).toContain('on 2 workers,');
    // Plain progress lines, not a bar, when stderr is not a terminal.
    expect(two.stderr).not.toContain('\r');
  });

  it('plays the same games as `npm run sim` and records the command that makes it again', () => {
    expect(parsed.command).toBe('npm run sim -- report --seed lab --games 40 --policy greedy --policy random --set enemies.drone.hp=3 --compare');
    expect(parsed.engineVersion).toBe('1.0.0');
    expect(Object.keys(parsed.rulesHash)).toEqual(['current', 'variant']);
    expect(parsed.rulesHash.current).not.toBe(parsed.rulesHash.variant);
    const current = parsed.runs.filter((r) => r.rules === 'current');
    for (const run of current) {
      const summary = runSimulation({ seed: 'lab', games: 40, policy: run.policy }).summary;
      expect(run.finalHash).toBe(summary.finalHash);
      expect(run.wins).toBe(summary.wins);
      expect(run.deathsByEnemy).toEqual(summary.deathsByEnemy);
    }
  });

  it('a --set that changes a rule changes the results, and the difference is reported with its interval', () => {
    const greedy = (rules: string) => parsed.runs.find((r) => r.policy === 'greedy' && r.rules === rules);
    expect(greedy('variant')?.finalHash).not.toBe(greedy('current')?.finalHash);
    expect(greedy('variant')?.wins).toBeLessThan(greedy('current')?.wins ?? 0);
    const comparison = parsed.comparisons.find((c) => c.policy === 'greedy');
    expect(comparison?.difference).toBeCloseTo((greedy('variant')?.winRate.rate ?? 0) - (greedy('current')?.winRate.rate ?? 0), 4);
    expect(comparison?.low).toBeLessThan(comparison?.difference ?? 0);
    expect(comparison?.high).toBeGreaterThan(comparison?.difference ?? 0);
    expect(comparison?.significant).toBe((comparison?.high ?? 0) < 0 || (comparison?.low ?? 0) > 0);
    expect(one.stdout).toContain('greedy: variant - current');
  });

  it('gives each outlier a command that replays it and a replay-viewer link', () => {
    const variant = parsed.runs.find((r) => r.policy === 'greedy' && r.rules === 'variant');
    const longest = variant?.outliers.longestLoss;
    expect(longest?.command).toBe(`npm run sim -- --seed lab --game ${longest?.game} --policy greedy --set enemies.drone.hp=3 --replay greedy-variant-game-${longest?.game}.json`);
    expect(longest?.link.startsWith('http://localhost:8080/personal/dungeon-crawler/replay#seed=lab-')).toBe(true);
    expect(longest?.link).toContain('&rules=');
    // The command works: it writes the game's replay file, which verifies.
    const dir = tempDir();
    const file = path.join(dir, 'outlier.json');
    const args = ['--seed', 'lab', '--game', String(longest?.game), '--policy', 'greedy', '--set', 'enemies.drone.hp=3', '--replay', file];
    expect(sim(...args).status).toBe(0);
    const check = sim('--replay', file);
    expect(check.stdout).toContain(`seed lab-${longest?.game}, `);
    expect(check.stdout).toContain(`lost in round ${longest?.rounds}\n`);
    expect(check.status).toBe(0);
  });

  it('games.csv reads back with a CSV parser: one row per game and run, the same totals as the report', () => {
    const rows = parse(one.csv, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
    expect(rows).toHaveLength(4 * 40);
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'policy',
      'rules',
      'game',
      'seed',
      'won',
      'outcome',
      'rounds',
      'floor',
      'deaths_drone',
      'deaths_runner',
      'deaths_bloater',
      'survivors_left',
      'actions',
      'state_hash',
    ]);
    for (const run of parsed.runs) {
      const mine = rows.filter((r) => r.policy === run.policy && r.rules === run.rules);
      expect(mine.map((r) => r.game)).toEqual(Array.from({ length: 40 }, (_, i) => String(i)));
      expect(mine.filter((r) => r.won === '1')).toHaveLength(run.wins);
      expect(mine.reduce((n, r) => n + Number(r.deaths_runner), 0)).toBe(run.deathsByEnemy.runner);
      expect(mine.every((r) => /^[0-9a-f]{8}$/.test(r.state_hash ?? ''))).toBe(true);
    }
  });

  it('refuses an unknown rule path with the list of the valid ones', () => {
    const run = sim('report', '--games', '2', '--set', 'enemies.dragon.hp=3', '--out', tempDir());
    expect(run.status).toBe(2);
    expect(run.stderr.startsWith('sim: Unknown rule "enemies.dragon.hp". Valid paths:\n')).toBe(true);
    for (const p of RULE_PATHS) expect(run.stderr).toContain(`\n  ${p} (default `);
    expect(sim('report', '--compare').stderr).toContain('sim: --compare compares the current rules with a variant: give the variant with --set PATH=VALUE');
  });

  it('report.html opens from disk in Chromium with no request elsewhere and every chart drawn', async () => {
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      const file = `file://${path.join(one.dir, 'report.html')}`;
      await page.goto(file);
      await page.waitForLoadState('networkidle');
      expect(requests).toEqual([file]);
      const expected = chartIds(parsed);
      expect(expected).toHaveLength(2 + 4 * 4);
      const drawn = await page.$$eval('figure[data-chart]', (figures) =>
        figures.map((f) => ({ id: f.getAttribute('data-chart'), marks: f.querySelectorAll('svg rect, svg circle').length, width: f.querySelector('svg')?.getBoundingClientRect().width ?? 0 })),
      );
      expect(drawn.map((d) => d.id)).toEqual(expected);
      for (const chart of drawn) {
        expect(chart.marks).toBeGreaterThan(0);
        expect(chart.width).toBeGreaterThan(100);
      }
      expect(await page.locator('a', { hasText: 'watch the replay' }).count()).toBe(4 * 3 - (await page.locator('td', { hasText: 'none in this run' }).count()));
      expect(await page.locator('script, link, img, iframe').count()).toBe(0);

      // On a phone (390 px): nothing wider than the screen; the compare table scrolls in its own box.
      const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await phone.goto(file);
      // (Expressions as text: this package's types have no DOM.)
      expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      const compare = await phone.evaluate<{ overflow: string; boxWidth: number; tableWidth: number }>(`(() => {
        const table = document.querySelector('table.compare');
        const box = table.parentElement;
        return { overflow: getComputedStyle(box).overflowX, boxWidth: box.clientWidth, tableWidth: table.scrollWidth };
      })()`);
      expect(compare.overflow).toBe('auto');
      expect(compare.boxWidth).toBeLessThanOrEqual(390);
      expect(compare.tableWidth).toBeGreaterThan(compare.boxWidth);
      await phone.screenshot({ path: path.join(one.dir, 'report-phone.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });

  it('says, in the page and on stdout, that the replay links assume http://localhost:8080 without --site or PUBLIC_URL, and how to change it', () => {
    const note =
      'The "watch the replay" links assume the site runs at http://localhost:8080 (neither --site nor PUBLIC_URL was given): make the report again with --site https://your.site (or PUBLIC_URL set) to point them at yours.';
    expect(parsed.replaySite).toEqual({ url: 'http://localhost:8080', from: 'default' });
    expect(one.html).toContain(`<dt>Replay links</dt><dd data-replay-site>${note.replace(/"/g, '&quot;')}</dd>`);
    expect(one.stdout).toContain(`\n${note}\n`);
  });

  it('points the replay links at PUBLIC_URL when set, and at --site over it', () => {
    const runs = [{ spec: { policy: 'greedy' as const, seed: 'lab', games: 3, maxRounds: 200, overrides: {} }, rules: 'current' as const }];
    const rows = runs.map((r) => ({ ...r, rows: playRange(r.spec, 0, r.spec.games) }));
    const args = { seed: 'lab', games: 3, policies: ['greedy' as const], maxRounds: 200, set: {}, compare: false, workers: 1, out: 'x', site: null };
    const fromEnv = reportFiles(args, rows, { PUBLIC_URL: 'https://home.example.org/' });
    expect(fromEnv.report.replaySite).toEqual({ url: 'https://home.example.org', from: 'PUBLIC_URL' });
    const links = fromEnv.report.runs.flatMap((r) => Object.values(r.outliers).flatMap((o) => (o ? [o.link] : [])));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.startsWith('https://home.example.org/personal/dungeon-crawler/replay#seed=lab-')).toBe(true);
    expect(fromEnv.html).toContain('<dt>Replay links</dt><dd data-replay-site>open <code>https://home.example.org</code> (from PUBLIC_URL)</dd>');
    expect(fromEnv.html).not.toContain('localhost');
    const fromOption = reportFiles({ ...args, site: 'https://family.example.net' }, rows, { PUBLIC_URL: 'https://home.example.org' });
    expect(fromOption.report.replaySite).toEqual({ url: 'https://family.example.net', from: '--site' });
  });
});

describe('sim report stopped with Ctrl+C', () => {
  it('stops its workers, says how far it got and writes nothing', async () => {
    const dir = tempDir();
    const env = { ...process.env };
    delete env.INIT_CWD;
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'report', '--games', '200000', '--workers', '2', '--out', dir], { env });
    let stderr = '';
    let scheduled = false;
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        // Once the workers have started and played for a moment.
        if (!scheduled && stderr.includes('playing 200000 games on 2 workers')) {
          scheduled = true;
          setTimeout(() => child.kill('SIGINT'), 1500);
        }
      });
      child.on('exit', (exitCode) => resolve(exitCode));
    });
    expect(code).toBe(130);
    expect(stderr).toMatch(/sim: stopped by Ctrl\+C after \d+ of 200000 games; no report written\n$/);
    expect(fs.readdirSync(dir)).toEqual([]);
  }, 120_000);
});
