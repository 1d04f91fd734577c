/** Command-line arguments of `npm run sim`. Pure: returns options, a help request or a usage error. */
import { isPolicyName, POLICY_NAMES } from './policies.ts';
import type { PolicyName } from './policies.ts';
import { isDailyDate, parseRuleSetting } from '@site/game-engine';
import type { RuleOverrides } from '@site/game-engine';
import { DEFAULT_MAX_ROUNDS } from './simulate.ts';

export const USAGE = `Usage: npm run sim -- [options]

Plays whole tower games with a built-in policy and prints a summary.

  --seed S          run seed (any text, default 42); game i uses the seed "S-i", i = 0..games-1
  --games N         number of games (default 100)
  --policy P        ${POLICY_NAMES.join(' | ')} (default greedy)
  --max-rounds N    stop a game after N rounds and count it as capped (default ${DEFAULT_MAX_ROUNDS})
  --daily DATE      the daily tower of DATE (YYYY-MM-DD): every game on that day's seed, once per
                    policy (${POLICY_NAMES.join(', ')}), to rate the day's difficulty; not with --seed
                    or --policy. With --replay FILE: also writes the replay of the day's game played
                    by the greedy policy to FILE (a new file)
  --json            print the summary as one JSON object
  --game I          play only game I of the run (its seed is "S-I"), e.g. an outlier of a report
  --set PATH=VALUE  change a constant of the rules for this run (repeatable); PATH is one of the
                    engine's rules (enemies.drone.hp, weapons.revolver.ammo, waveDecks.lab, ...;
                    a wrong one prints the list). A wave deck is written drone+drone,runner,bloater
  --replay FILE     FILE missing: write the replay file (seed + action log) of the first game
                    FILE present: replay it, verify its final hash, print OK or why it fails
                    (exit 1); the other options are ignored. Same format as the game page's export.
  -h, --help        print this help

npm run sim -- report [--seed S] [--games N] [--policy P ...] [--set PATH=VALUE ...] [--compare]
                      [--workers N] [--out DIR] [--site URL] [--max-rounds N]
  writes DIR/report.html (charts, no outside requests), DIR/report.json and DIR/games.csv
  --policy P        repeatable; default greedy
  --compare         play the current rules and the --set variant on the same seeds, side by side
  --workers N       worker threads (default the number of cores); the results do not depend on it
  --out DIR         default sim-report (relative to where npm was started)
  --site URL        the site the replay links open (default PUBLIC_URL, else http://localhost:8080)

The same arguments always print the same numbers. Elapsed time and progress go to stderr.
Exit codes: 0 done, 1 replay verification failed, 2 bad arguments, 130 stopped by Ctrl+C.`;

export interface SimArgs {
  seed: string;
  games: number;
  policy: PolicyName;
  maxRounds: number;
  json: boolean;
  replay: string | null;
  /** --daily DATE: the day whose seed every game plays. */
  daily: string | null;
  /** --game I: play game I of the run alone. */
  game: number | null;
  /** --set: the rules variant (path -> value). */
  set: RuleOverrides;
}

export interface ReportArgs {
  seed: string;
  games: number;
  policies: PolicyName[];
  maxRounds: number;
  set: RuleOverrides;
  compare: boolean;
  workers: number | null;
  out: string;
  site: string | null;
}

export type ParsedArgs =
  | { kind: 'run'; args: SimArgs }
  | { kind: 'report'; args: ReportArgs }
  | { kind: 'help' }
  | { kind: 'error'; message: string };

const MAX_GAMES = 10_000_000;

function positiveInteger(flag: string, raw: string, max: number): number | string {
  if (!/^\d+$/.test(raw)) return `${flag} needs a whole number, got "${raw}"`;
  const value = Number(raw);
  if (value < 1 || value > max) return `${flag} must be between 1 and ${max}, got ${raw}`;
  return value;
}

type Flag = { flag: string; value: string | null };

/**
 * The options as (flag, value) pairs in order: `--flag value` or `--flag=value`; `switches` take no value.
 * Returns 'help' for -h/--help, or the message of the first unknown option or missing value.
 */
function readFlags(argv: readonly string[], valued: readonly string[], switches: readonly string[]): Flag[] | 'help' | string {
  const flags: Flag[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] ?? '';
    if (token === '-h' || token === '--help') return 'help';
    if (switches.includes(token)) {
      flags.push({ flag: token, value: null });
      continue;
    }
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    const flag = eq > 0 ? token.slice(0, eq) : token;
    if (!valued.includes(flag)) return token.startsWith('-') ? `Unknown option ${flag}` : `Unexpected argument "${token}"`;
    let value: string | undefined;
    if (eq > 0) value = token.slice(eq + 1);
    else {
      value = argv[i + 1];
      i += 1;
    }
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--'))) return `${flag} needs a value`;
    flags.push({ flag, value });
  }
  return flags;
}

/** The options both commands share; returns an error message or null. */
function commonOption(flag: string, value: string, into: { seed: string; games: number; maxRounds: number; set: RuleOverrides }): string | null | undefined {
  switch (flag) {
    case '--seed':
      into.seed = value;
      return null;
    case '--games': {
      const games = positiveInteger(flag, value, MAX_GAMES);
      if (typeof games === 'string') return games;
      into.games = games;
      return null;
    }
    case '--max-rounds': {
      const rounds = positiveInteger(flag, value, 100_000);
      if (typeof rounds === 'string') return rounds;
      into.maxRounds = rounds;
      return null;
    }
    case '--set': {
      const setting = parseRuleSetting(value);
      if (!setting.ok) return setting.message;
      into.set[setting.path] = setting.value;
      return null;
    }
    default:
      return undefined;
  }
}

function policyOf(value: string): PolicyName | string {
  return isPolicyName(value) ? value : `Unknown policy "${value}" (choose ${POLICY_NAMES.join(' or ')})`;
}

/**
 * Reads the options into `into`: the ones both commands share here, the command's own through `own`
 * (a switch comes with value null). Returns the flags given, or the help or error to answer instead.
 */
function readOptions(
  argv: readonly string[],
  valued: readonly string[],
  switches: readonly string[],
  into: { seed: string; games: number; maxRounds: number; set: RuleOverrides },
  own: (flag: string, value: string | null) => string | null,
): Set<string> | ParsedArgs {
  const flags = readFlags(argv, valued, switches);
  if (flags === 'help') return { kind: 'help' };
  if (typeof flags === 'string') return { kind: 'error', message: flags };
  for (const { flag, value } of flags) {
    const common = value === null ? undefined : commonOption(flag, value, into);
    const problem = common === undefined ? own(flag, value) : common;
    if (problem !== null) return { kind: 'error', message: problem };
  }
  return new Set(flags.map((f) => f.flag));
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  if (argv[0] === 'report') return parseReportArgs(argv.slice(1));
  const args: SimArgs = { seed: '42', games: 100, policy: 'greedy', maxRounds: DEFAULT_MAX_ROUNDS, json: false, replay: null, daily: null, game: null, set: {} };
  const given = readOptions(argv, ['--seed', '--games', '--policy', '--max-rounds', '--replay', '--daily', '--game', '--set'], ['--json'], args, (flag, value) => {
    if (value === null) {
      args.json = true;
      return null;
    }
    switch (flag) {
      case '--policy': {
        const policy = policyOf(value);
        if (!isPolicyName(policy)) return policy;
        args.policy = policy;
        return null;
      }
      case '--replay':
        args.replay = value;
        return null;
      case '--daily':
        if (!isDailyDate(value)) return `--daily needs a real day written YYYY-MM-DD, got "${value}"`;
        args.daily = value;
        return null;
      default:
        if (!/^\d+$/.test(value) || Number(value) >= MAX_GAMES) return `--game needs a game number from 0, got "${value}"`;
        args.game = Number(value);
        return null;
    }
  });
  if (!(given instanceof Set)) return given;
  const error = (message: string): ParsedArgs => ({ kind: 'error', message });
  if (args.daily !== null) {
    const clash = ['--seed', '--policy', '--game', '--set'].find((flag) => given.has(flag));
    if (clash) return error(`--daily plays every policy on the day's seed; it cannot be combined with ${clash}`);
  }
  if (args.game !== null && given.has('--games')) return error('--game plays one game; it cannot be combined with --games');
  return { kind: 'run', args };
}

function parseReportArgs(argv: readonly string[]): ParsedArgs {
  const args: ReportArgs = { seed: '42', games: 100, policies: [], maxRounds: DEFAULT_MAX_ROUNDS, set: {}, compare: false, workers: null, out: 'sim-report', site: null };
  const given = readOptions(argv, ['--seed', '--games', '--policy', '--max-rounds', '--set', '--workers', '--out', '--site'], ['--compare'], args, (flag, value) => {
    if (value === null) {
      args.compare = true;
      return null;
    }
    switch (flag) {
      case '--policy': {
        const policy = policyOf(value);
        if (!isPolicyName(policy)) return policy;
        if (!args.policies.includes(policy)) args.policies.push(policy);
        return null;
      }
      case '--workers': {
        const workers = positiveInteger(flag, value, 256);
        if (typeof workers === 'string') return workers;
        args.workers = workers;
        return null;
      }
      case '--out':
        args.out = value;
        return null;
      default:
        if (!/^https?:\/\/[^/\s]+$/.test(value)) return `--site needs an address like https://home.example.org (no path), got "${value}"`;
        args.site = value;
        return null;
    }
  });
  if (!(given instanceof Set)) return given;
  if (args.policies.length === 0) args.policies.push('greedy');
  if (args.compare && Object.keys(args.set).length === 0) {
    return { kind: 'error', message: '--compare compares the current rules with a variant: give the variant with --set PATH=VALUE' };
  }
  return { kind: 'report', args };
}
