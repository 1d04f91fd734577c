/** Command-line arguments of `npm run sim`. Pure: returns options, a help request or a usage error. */
import { isPolicyName, POLICY_NAMES } from './policies.ts';
import type { PolicyName } from './policies.ts';
import { isDailyDate } from '@site/game-engine';
import { DEFAULT_MAX_ROUNDS } from './simulate.ts';

export const USAGE = `Usage: npm run sim -- [options]

Plays whole tower games with a built-in policy and prints a summary.

  --seed S          run seed (any text, default 42); game i uses the seed "S-i", i = 0..games-1
  --games N         number of games (default 100)
  --policy P        ${POLICY_NAMES.join(' | ')} (default greedy)
  --max-rounds N    stop a game after N rounds and count it as capped (default ${DEFAULT_MAX_ROUNDS})
  --daily DATE      the daily tower of DATE (YYYY-MM-DD): every game on that day's seed, once per
                    policy (${POLICY_NAMES.join(', ')}), to rate the day's difficulty; not with --seed,
                    --policy or --replay
  --json            print the summary as one JSON object
  --replay FILE     FILE missing: write the replay file (seed + action log) of the first game (game 0)
                    FILE present: replay it, verify its final hash, print OK or why it fails
                    (exit 1); the other options are ignored. Same format as the game page's export.
  -h, --help        print this help

The same arguments always print the same numbers. Elapsed time and progress go to stderr.
Exit codes: 0 done, 1 replay verification failed, 2 bad arguments.`;

export interface SimArgs {
  seed: string;
  games: number;
  policy: PolicyName;
  maxRounds: number;
  json: boolean;
  replay: string | null;
  /** --daily DATE: the day whose seed every game plays. */
  daily: string | null;
}

export type ParsedArgs = { kind: 'run'; args: SimArgs } | { kind: 'help' } | { kind: 'error'; message: string };

const MAX_GAMES = 10_000_000;

function positiveInteger(flag: string, raw: string, max: number): number | string {
  if (!/^\d+$/.test(raw)) return `${flag} needs a whole number, got "${raw}"`;
  const value = Number(raw);
  if (value < 1 || value > max) return `${flag} must be between 1 and ${max}, got ${raw}`;
  return value;
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const args: SimArgs = { seed: '42', games: 100, policy: 'greedy', maxRounds: DEFAULT_MAX_ROUNDS, json: false, replay: null, daily: null };
  const given = new Set<string>();
  const error = (message: string): ParsedArgs => ({ kind: 'error', message });
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] ?? '';
    if (token === '-h' || token === '--help') return { kind: 'help' };
    if (token === '--json') {
      args.json = true;
      continue;
    }
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    const flag = eq > 0 ? token.slice(0, eq) : token;
    if (!['--seed', '--games', '--policy', '--max-rounds', '--replay', '--daily'].includes(flag)) {
      return error(token.startsWith('-') ? `Unknown option ${flag}` : `Unexpected argument "${token}"`);
    }
    let value: string | undefined;
    if (eq > 0) value = token.slice(eq + 1);
    else {
      value = argv[i + 1];
      i += 1;
    }
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--'))) return error(`${flag} needs a value`);
    given.add(flag);
    switch (flag) {
      case '--seed':
        args.seed = value;
        break;
      case '--games': {
        const games = positiveInteger(flag, value, MAX_GAMES);
        if (typeof games === 'string') return error(games);
        args.games = games;
        break;
      }
      case '--max-rounds': {
        const rounds = positiveInteger(flag, value, 100_000);
        if (typeof rounds === 'string') return error(rounds);
        args.maxRounds = rounds;
        break;
      }
      case '--policy':
        if (!isPolicyName(value)) return error(`Unknown policy "${value}" (choose ${POLICY_NAMES.join(' or ')})`);
        args.policy = value;
        break;
      case '--replay':
        args.replay = value;
        break;
      case '--daily':
        if (!isDailyDate(value)) return error(`--daily needs a real day written YYYY-MM-DD, got "${value}"`);
        args.daily = value;
        break;
    }
  }
  if (args.daily !== null) {
    const clash = ['--seed', '--policy', '--replay'].find((flag) => given.has(flag));
    if (clash) return error(`--daily plays every policy on the day's seed; it cannot be combined with ${clash}`);
  }
  return { kind: 'run', args };
}
