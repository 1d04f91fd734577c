/**
 * `npm run sim -- report`: plays the runs over worker threads and writes report.html, report.json and
 * games.csv. Everything written depends on the arguments alone (not on --workers, --out or the clock).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_RULES, deckText, FLOORS, hashState } from '@site/game-engine';
import type { RuleOverrides } from '@site/game-engine';
import type { ReportArgs } from './args.ts';
import { rulesOfOverrides } from './games.ts';
import type { GameRow, RunSpec } from './games.ts';
import { defaultWorkers, playRuns } from './pool.ts';
import { createProgress } from './progress.ts';
import type { ProgressStream } from './progress.ts';
import { buildReport, defaultSiteNote, gamesCsv } from './report.ts';
import type { BalanceReport, RulesName, SiteSource } from './report.ts';
import { reportHtml } from './report-html.ts';
import { DEFAULT_MAX_ROUNDS } from './simulate.ts';

const DEFAULT_SITE = 'http://localhost:8080';

/** A word for a POSIX shell: as it is when it is safe, else in single quotes. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function setFlags(set: RuleOverrides): string[] {
  return Object.entries(set).flatMap(([p, v]) => ['--set', shellWord(`${p}=${Array.isArray(v) ? deckText(v) : String(v)}`)]);
}

/** The command that writes this report again (without --workers and --out, which change nothing in it). */
export function reportCommand(args: ReportArgs): string {
  const words = ['npm', 'run', 'sim', '--', 'report', '--seed', shellWord(args.seed), '--games', String(args.games)];
  for (const policy of args.policies) words.push('--policy', policy);
  if (args.maxRounds !== DEFAULT_MAX_ROUNDS) words.push('--max-rounds', String(args.maxRounds));
  words.push(...setFlags(args.set));
  if (args.compare) words.push('--compare');
  if (args.site !== null) words.push('--site', shellWord(args.site));
  return words.join(' ');
}

function replayCommand(spec: RunSpec, rules: RulesName, game: number): string {
  const words = ['npm', 'run', 'sim', '--', '--seed', shellWord(spec.seed), '--game', String(game), '--policy', spec.policy];
  if (spec.maxRounds !== DEFAULT_MAX_ROUNDS) words.push('--max-rounds', String(spec.maxRounds));
  words.push(...setFlags(spec.overrides), '--replay', `${spec.policy}-${rules}-game-${game}.json`);
  return words.join(' ');
}

function engineVersion(): string {
  const file = new URL('../../../game-engine/package.json', import.meta.url);
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The runs of a report: each policy under the current rules, the variant, or both with --compare. */
export function reportRuns(args: ReportArgs): { spec: RunSpec; rules: RulesName }[] {
  const variant = Object.keys(args.set).length > 0;
  const sets: { rules: RulesName; overrides: RuleOverrides }[] = [];
  if (!variant || args.compare) sets.push({ rules: 'current', overrides: {} });
  if (variant) sets.push({ rules: 'variant', overrides: args.set });
  return args.policies.flatMap((policy) =>
    sets.map(({ rules, overrides }) => ({ rules, spec: { policy, seed: args.seed, games: args.games, maxRounds: args.maxRounds, overrides } })),
  );
}

/** The replay links' site: --site, else PUBLIC_URL (the site's own setting), else the local default. */
export function replaySite(args: Pick<ReportArgs, 'site'>, env: NodeJS.ProcessEnv): { site: string; siteFrom: SiteSource } {
  if (args.site !== null) return { site: args.site, siteFrom: '--site' };
  const fromEnv = env.PUBLIC_URL?.trim().replace(/\/+$/, '');
  if (fromEnv) return { site: fromEnv, siteFrom: 'PUBLIC_URL' };
  return { site: DEFAULT_SITE, siteFrom: 'default' };
}

export interface ReportFiles {
  report: BalanceReport;
  json: string;
  csv: string;
  html: string;
}

/** The three files of a report from its played runs. */
export function reportFiles(args: ReportArgs, runs: { spec: RunSpec; rules: RulesName; rows: GameRow[] }[], env: NodeJS.ProcessEnv): ReportFiles {
  const rulesHash: Partial<Record<RulesName, string>> = {};
  for (const run of runs) rulesHash[run.rules] = hashState(run.rules === 'current' ? DEFAULT_RULES : rulesOfOverrides(run.spec.overrides));
  const report = buildReport(
    {
      command: reportCommand(args),
      engineVersion: engineVersion(),
      rulesHash,
      ...replaySite(args, env),
      replayCommand: (spec, game) => replayCommand(spec, runs.find((r) => r.spec === spec)?.rules ?? 'current', game),
      runs,
    },
    FLOORS.length,
  );
  return { report, json: `${JSON.stringify(report, null, 2)}\n`, csv: gamesCsv(runs), html: reportHtml(report) };
}

export interface ReportIo {
  stdout: ProgressStream;
  stderr: ProgressStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  signal: AbortSignal;
}

export async function runReport(args: ReportArgs, io: ReportIo): Promise<number> {
  const workers = args.workers ?? defaultWorkers();
  const planned = reportRuns(args);
  const total = planned.reduce((n, r) => n + r.spec.games, 0);
  const started = performance.now();
  io.stderr.write(`playing ${total} games on ${workers} worker${workers === 1 ? '' : 's'}\n`);
  const progress = createProgress(io.stderr, total);
  let rows: GameRow[][];
  try {
    rows = await playRuns(
      planned.map((r) => r.spec),
      { workers, signal: io.signal, onProgress: (done) => progress.update(done, total) },
    );
  } finally {
    progress.finish();
  }
  const playedSeconds = (performance.now() - started) / 1000;
  const files = reportFiles(
    args,
    planned.map((r, i) => ({ ...r, rows: rows[i] ?? [] })),
    io.env,
  );
  const out = path.resolve(io.env.INIT_CWD ?? io.cwd, args.out);
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'report.json'), files.json);
  fs.writeFileSync(path.join(out, 'games.csv'), files.csv);
  fs.writeFileSync(path.join(out, 'report.html'), files.html);
  const lines = files.report.runs.map(
    (r) => `${`${r.policy}, ${r.rules} rules`.padEnd(28)}${(r.winRate.rate * 100).toFixed(2)} % won (95% ${(r.winRate.low * 100).toFixed(2)}-${(r.winRate.high * 100).toFixed(2)} %), median ${r.rounds.median} rounds`,
  );
  for (const c of files.report.comparisons) {
    lines.push(
      `${`${c.policy}: variant - current`.padEnd(28)}${c.difference >= 0 ? '+' : ''}${(c.difference * 100).toFixed(2)} points (95% ${(c.low * 100).toFixed(2)} to ${(c.high * 100).toFixed(2)}), ${c.significant ? 'significant' : 'not significant'}`,
    );
  }
  lines.push(`wrote ${path.join(out, 'report.html')}, report.json and games.csv`);
  if (files.report.replaySite.from === 'default') lines.push(defaultSiteNote(files.report.replaySite.url));
  io.stdout.write(`${lines.join('\n')}\n`);
  const seconds = (performance.now() - started) / 1000;
  io.stderr.write(`elapsed ${seconds.toFixed(2)} s (games ${playedSeconds.toFixed(2)} s on ${workers} worker${workers === 1 ? '' : 's'}, ${(total / Math.max(playedSeconds, 0.001)).toFixed(0)} games/s)\n`);
  return 0;
}
