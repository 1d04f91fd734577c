/**
 * The balance report of `npm run sim -- report`: per run (a policy under the current rules or the
 * variant) the win rate with its Wilson interval, distributions, and the outlier games; per policy the
 * variant's difference. Pure: the same runs give the same report, so its JSON reproduces byte for byte.
 */
import { hashState, replayFragment } from '@site/game-engine';
import type { EnemyKind, RuleOverrides } from '@site/game-engine';
import { TOWER_REPLAY_PAGE } from '@site/contracts/tower';
import { rulesOfOverrides } from './games.ts';
import type { GameRow, RunSpec } from './games.ts';
import type { PolicyName } from './policies.ts';
import { ENEMY_KINDS, playGame } from './simulate.ts';
import { histogram, proportionDifference, quantile, rounded, wilson } from './stats.ts';
import type { Histogram } from './stats.ts';

export type RulesName = 'current' | 'variant';

export interface Outlier {
  game: number;
  seed: string;
  outcome: GameRow['outcome'];
  rounds: number;
  floor: number;
  /** The command that plays this game alone and writes its replay file. */
  command: string;
  /** The replay viewer with the game in the link. */
  link: string;
}

export interface ReportRun {
  policy: PolicyName;
  rules: RulesName;
  games: number;
  wins: number;
  losses: number;
  capped: number;
  /** Fractions (0..1): the win rate and its 95% Wilson interval. */
  winRate: { rate: number; low: number; high: number };
  rounds: { mean: number; median: number; p95: number; min: number; max: number; histogram: Histogram };
  /** Games by the floor they ended on (a won game ends on the top floor). */
  floors: Record<string, number>;
  /** Survivors killed, by the kind of enemy that dealt the killing blow. */
  deathsByEnemy: Record<EnemyKind, number>;
  /** Games by the number of survivors alive at the end. */
  survivorsLeft: Record<string, number>;
  outliers: { fastestWin: Outlier | null; longestLoss: Outlier | null; closestLoss: Outlier | null };
  /** Hash over the final-state hashes of every game, in game order (runSimulation's finalHash of the same games). */
  finalHash: string;
}

export interface Comparison {
  policy: PolicyName;
  current: number;
  variant: number;
  /** variant - current, with its 95% interval (fractions). */
  difference: number;
  low: number;
  high: number;
  significant: boolean;
}

export interface BalanceReport {
  format: 'tower-balance-report';
  version: 1;
  /** The command that makes this report again, byte for byte (workers and --out change nothing in it). */
  command: string;
  engineVersion: string;
  /** hashState of the rules each run was played by. */
  rulesHash: Partial<Record<RulesName, string>>;
  seed: string;
  games: number;
  maxRounds: number;
  policies: PolicyName[];
  /** The variant's changes (path -> value); empty without --set. */
  set: RuleOverrides;
  runs: ReportRun[];
  comparisons: Comparison[];
  /** The site the "watch the replay" links open, and where that came from (the default is said in the page). */
  replaySite: { url: string; from: SiteSource };
}

/** Where the replay links' site came from: --site, PUBLIC_URL, or neither (http://localhost:8080). */
export type SiteSource = '--site' | 'PUBLIC_URL' | 'default';

/** What the report says when its links open the local default: that they do, and how to change it. */
export function defaultSiteNote(url: string): string {
  return `The "watch the replay" links assume the site runs at ${url} (neither --site nor PUBLIC_URL was given): make the report again with --site https://your.site (or PUBLIC_URL set) to point them at yours.`;
}

export interface ReportInput {
  command: string;
  engineVersion: string;
  rulesHash: Partial<Record<RulesName, string>>;
  site: string;
  siteFrom: SiteSource;
  /** The command that replays one game: `--game` and `--replay` are added to it. */
  replayCommand: (spec: RunSpec, game: number) => string;
  runs: { spec: RunSpec; rules: RulesName; rows: readonly GameRow[] }[];
}

function countBy(values: Iterable<number>, keys: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[String(k)] = 0;
  for (const v of values) out[String(v)] = (out[String(v)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b)));
}

/** The row that comes first by `better`, lowest game index on a tie (rows are in index order). */
function pick(rows: readonly GameRow[], keep: (r: GameRow) => boolean, better: (a: GameRow, b: GameRow) => number): GameRow | null {
  let best: GameRow | null = null;
  for (const r of rows) if (keep(r) && (best === null || better(r, best) < 0)) best = r;
  return best;
}

function outlierOf(input: ReportInput, spec: RunSpec, row: GameRow | null): Outlier | null {
  if (!row) return null;
  const game = playGame(row.seed, spec.policy, { maxRounds: spec.maxRounds, rules: rulesOfOverrides(spec.overrides), record: true });
  const fragment = replayFragment({ seed: row.seed, actions: game.actions ?? [], ...(Object.keys(spec.overrides).length ? { rules: spec.overrides } : {}) });
  return {
    game: row.index,
    seed: row.seed,
    outcome: row.outcome,
    rounds: row.rounds,
    floor: row.floor,
    command: input.replayCommand(spec, row.index),
    link: `${input.site}${TOWER_REPLAY_PAGE}${fragment}`,
  };
}

function runOf(input: ReportInput, spec: RunSpec, rules: RulesName, rows: readonly GameRow[], topFloor: number): ReportRun {
  const games = rows.length;
  const wins = rows.filter((r) => r.outcome === 'won').length;
  const losses = rows.filter((r) => r.outcome === 'lost').length;
  const interval = wilson(wins, games);
  const rounds = rows.map((r) => r.rounds).sort((a, b) => a - b);
  const deaths: Record<EnemyKind, number> = { drone: 0, runner: 0, bloater: 0 };
  for (const r of rows) for (const kind of ENEMY_KINDS) deaths[kind] += r.deaths[kind];
  const mostSurvivors = rows.reduce((m, r) => Math.max(m, r.survivorsLeft), 0);
  const lost = (r: GameRow) => r.outcome === 'lost';
  return {
    policy: spec.policy,
    rules,
    games,
    wins,
    losses,
    capped: games - wins - losses,
    winRate: { rate: rounded(games > 0 ? wins / games : 0), low: rounded(interval.low), high: rounded(interval.high) },
    rounds: {
      mean: rounded(games > 0 ? rounds.reduce((a, b) => a + b, 0) / games : 0, 2),
      median: quantile(rounds, 0.5),
      p95: quantile(rounds, 0.95),
      min: rounds[0] ?? 0,
      max: rounds[rounds.length - 1] ?? 0,
      histogram: histogram(rounds),
    },
    floors: countBy(
      rows.map((r) => r.floor),
      Array.from({ length: topFloor }, (_, i) => i + 1),
    ),
    deathsByEnemy: deaths,
    survivorsLeft: countBy(
      rows.map((r) => r.survivorsLeft),
      Array.from({ length: mostSurvivors + 1 }, (_, i) => i),
    ),
    outliers: {
      fastestWin: outlierOf(input, spec, pick(rows, (r) => r.outcome === 'won', (a, b) => a.rounds - b.rounds)),
      longestLoss: outlierOf(input, spec, pick(rows, lost, (a, b) => b.rounds - a.rounds)),
      // Closest: the highest floor, then the nearest any survivor came to the top floor's stairs, then the most rounds.
      closestLoss: outlierOf(
        input,
        spec,
        pick(rows, lost, (a, b) => b.floor - a.floor || (a.closestToTop ?? Infinity) - (b.closestToTop ?? Infinity) || b.rounds - a.rounds),
      ),
    },
    finalHash: hashState(rows.map((r) => r.hash)),
  };
}

export function buildReport(input: ReportInput, topFloor: number): BalanceReport {
  const first = input.runs[0]?.spec;
  const runs = input.runs.map(({ spec, rules, rows }) => runOf(input, spec, rules, rows, topFloor));
  const comparisons: Comparison[] = [];
  for (const variant of runs.filter((r) => r.rules === 'variant')) {
    const current = runs.find((r) => r.rules === 'current' && r.policy === variant.policy);
    if (!current) continue;
    const d = proportionDifference(variant.wins, variant.games, current.wins, current.games);
    comparisons.push({
      policy: variant.policy,
      current: current.winRate.rate,
      variant: variant.winRate.rate,
      difference: rounded(d.difference),
      low: rounded(d.low),
      high: rounded(d.high),
      significant: d.significant,
    });
  }
  const policies = [...new Set(input.runs.map((r) => r.spec.policy))];
  const set = input.runs.find((r) => r.rules === 'variant')?.spec.overrides ?? {};
  return {
    format: 'tower-balance-report',
    version: 1,
    command: input.command,
    engineVersion: input.engineVersion,
    rulesHash: input.rulesHash,
    seed: first?.seed ?? '',
    games: first?.games ?? 0,
    maxRounds: first?.maxRounds ?? 0,
    policies,
    set,
    runs,
    comparisons,
    replaySite: { url: input.site, from: input.siteFrom },
  };
}

/** games.csv: one row per game of every run, RFC 4180 (fields with a comma, quote or line break are quoted). */
export function gamesCsv(runs: ReportInput['runs']): string {
  const head = ['policy', 'rules', 'game', 'seed', 'won', 'outcome', 'rounds', 'floor', ...ENEMY_KINDS.map((k) => `deaths_${k}`), 'survivors_left', 'actions', 'state_hash'];
  const lines = [head.join(',')];
  for (const { spec, rules, rows } of runs) {
    for (const r of rows) {
      const cells = [spec.policy, rules, r.index, r.seed, r.outcome === 'won' ? 1 : 0, r.outcome, r.rounds, r.floor, ...ENEMY_KINDS.map((k) => r.deaths[k]), r.survivorsLeft, r.actions, r.hash];
      lines.push(cells.map((c) => csvField(String(c))).join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
