/**
 * Whole games played by a built-in policy, and the summary of a run. Pure: no I/O, no clock, so the
 * same options always give the same summary.
 *
 * Game i of a run (i = 0, 1, ..., games - 1) is played with the game seed `${seed}-${i}`; the policy's
 * own PRNG is seeded from that game seed (see policySeed), so any single game can be replayed alone.
 */
import { apply, createGame, hashState, FLOORS } from '@site/game-engine';
import type { Action, EnemyKind, GameEvent, GameState, Rules } from '@site/game-engine';
import { createPolicy } from './policies.ts';
import type { PolicyName } from './policies.ts';

export const ENEMY_KINDS: readonly EnemyKind[] = ['drone', 'runner', 'bloater'];
export const DEFAULT_MAX_ROUNDS = 200;
export const DEFAULT_MAX_ACTIONS = 20_000;

export function gameSeed(seed: string, index: number): string {
  return `${seed}-${index}`;
}

export interface PlayOptions {
  /** A game still running after this many rounds is stopped and counted as capped. */
  maxRounds?: number;
  /** A game still running after this many actions is stopped and counted as capped. */
  maxActions?: number;
  /** Keep the action log (for a replay file). */
  record?: boolean;
  /** Seeds the policy's own choices; default the game seed (see policySeed). */
  policyKey?: string;
  /** A rules variant (rulesWith); default the normal rules. */
  rules?: Rules;
}

export type Outcome = 'won' | 'lost' | 'capped';

export interface GameRecord {
  seed: string;
  outcome: Outcome;
  /** The round the game ended in (state.round). */
  rounds: number;
  /** 1-based floor the game ended on. */
  level: number;
  actionCount: number;
  /** Survivors killed, by the kind of enemy that dealt the killing blow. */
  deaths: Record<EnemyKind, number>;
  /** Survivors alive at the end. */
  survivorsLeft: number;
  /** Fewest king moves any survivor stood from the top floor's stairs (null: never on the top floor). */
  closestToTop: number | null;
  finalState: GameState;
  finalHash: string;
  /** The accepted actions in order, when recorded. */
  actions: Action[] | null;
}

function emptyDeaths(): Record<EnemyKind, number> {
  return { drone: 0, runner: 0, bloater: 0 };
}

/** Plays one game to the end (or the cap). Throws if the policy ever picks an action `apply` rejects. */
export function playGame(seed: string, policyName: PolicyName, options: PlayOptions = {}): GameRecord {
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
  const maxActions = options.maxActions ?? DEFAULT_MAX_ACTIONS;
  const policy = createPolicy(policyName, options.policyKey ?? seed);
  const log: Action[] | null = options.record ? [] : null;
  const deaths = emptyDeaths();
  let state = createGame(options.rules ? { seed, rules: options.rules } : { seed });
  const top = state.levels.length - 1;
  let closestToTop: number | null = null;
  let actionCount = 0;
  while (state.status === 'playing' && state.round <= maxRounds && actionCount < maxActions) {
    const action = policy.choose(state);
    const result = apply(state, action);
    if (!result.ok) {
      throw new Error(`Policy ${policyName} chose a rejected action in game ${seed}: ${JSON.stringify(action)} (${result.message})`);
    }
    actionCount += 1;
    log?.push(action);
    countDeaths(state, result.state, result.events, deaths);
    state = result.state;
    if (state.levelIndex === top) closestToTop = closestTo(state, top, closestToTop);
  }
  const outcome: Outcome = state.status === 'playing' ? 'capped' : state.status;
  return {
    seed,
    outcome,
    rounds: state.round,
    level: state.levelIndex + 1,
    actionCount,
    deaths,
    survivorsLeft: state.survivors.filter((s) => s.hp > 0).length,
    closestToTop,
    finalState: state,
    finalHash: hashState(state),
    actions: log,
  };
}

function closestTo(state: GameState, top: number, best: number | null): number | null {
  const stairs = state.levels[top]?.stairs;
  if (!stairs) return best;
  let closest = best;
  for (const s of state.survivors) {
    if (s.hp <= 0) continue;
    const d = Math.max(Math.abs(s.x - stairs.x), Math.abs(s.y - stairs.y));
    if (closest === null || d < closest) closest = d;
  }
  return closest;
}

/**
 * A survivor 'died' event is preceded by the enemy 'attacked' event that killed it; the enemy is
 * still on the map afterwards (enemies only die in the survivors' phase), or was there before.
 */
function countDeaths(before: GameState, after: GameState, events: readonly GameEvent[], deaths: Record<EnemyKind, number>): void {
  for (let i = 0; i < events.length; i++) {
    const died = events[i];
    if (died?.type !== 'died' || !before.survivors.some((s) => s.id === died.actorId)) continue;
    for (let j = i - 1; j >= 0; j--) {
      const hit = events[j];
      if (hit?.type !== 'attacked' || hit.targetId !== died.actorId) continue;
      const killer = after.enemies.find((e) => e.id === hit.attackerId) ?? before.enemies.find((e) => e.id === hit.attackerId);
      if (killer) deaths[killer.kind] += 1;
      break;
    }
  }
}

export interface SimulationOptions extends Omit<PlayOptions, 'record'> {
  seed: string;
  games: number;
  policy: PolicyName;
  /** Keep the first game's action log (GameRecord.actions of `first`). */
  recordFirst?: boolean;
  /**
   * The daily tower: every game is played on `seed` itself (the day's seed) and only the policy's
   * choices differ, seeded from `${seed}-${i}`, so the run rates that one game's difficulty.
   */
  sameSeed?: boolean;
  /** Called after every game with the number of games finished. */
  onProgress?: (done: number, total: number) => void;
  /** The index of the first game (default 0): `--game I` plays game I of a run alone. */
  firstGame?: number;
}

export interface SimulationSummary {
  seed: string;
  games: number;
  policy: PolicyName;
  /** How game seeds are made from --seed: game i uses `${seed}-${i}` (with sameSeed: every game uses the seed). */
  gameSeeds: string;
  /** Every game on the same seed (the daily tower), only the policy's choices differ. */
  sameSeed: boolean;
  maxRounds: number;
  wins: number;
  losses: number;
  capped: number;
  /** Percent of all games won, 2 decimals. */
  winRate: number;
  rounds: { mean: number; min: number; max: number };
  actions: { total: number; meanPerGame: number };
  /** Survivors killed, by the kind of enemy that dealt the killing blow. */
  deathsByEnemy: Record<EnemyKind, number>;
  /** Games by the floor (1-based) they ended on; a won game ends on the last floor. */
  levelsReached: Record<string, number>;
  /** Hash over every game's final hashState, in game order. */
  finalHash: string;
}

export interface SimulationResult {
  summary: SimulationSummary;
  /** The first game (game 0), with its action log when recordFirst was set. */
  first: GameRecord | null;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export function runSimulation(options: SimulationOptions): SimulationResult {
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
  const maxActions = options.maxActions ?? DEFAULT_MAX_ACTIONS;
  const deaths = emptyDeaths();
  const reached: Record<string, number> = {};
  for (let floor = 1; floor <= FLOORS.length; floor++) reached[String(floor)] = 0;
  const hashes: string[] = [];
  let wins = 0;
  let losses = 0;
  let capped = 0;
  let roundsTotal = 0;
  let roundsMin = Infinity;
  let roundsMax = 0;
  let actionsTotal = 0;
  let first: GameRecord | null = null;
  const from = options.firstGame ?? 0;
  const rules = options.rules ? { rules: options.rules } : {};
  for (let i = 0; i < options.games; i++) {
    const record = i === 0 && options.recordFirst === true;
    const index = from + i;
    const game = options.sameSeed
      ? playGame(options.seed, options.policy, { maxRounds, maxActions, record, policyKey: gameSeed(options.seed, index), ...rules })
      : playGame(gameSeed(options.seed, index), options.policy, { maxRounds, maxActions, record, ...rules });
    if (i === 0) first = game;
    if (game.outcome === 'won') wins += 1;
    else if (game.outcome === 'lost') losses += 1;
    else capped += 1;
    roundsTotal += game.rounds;
    roundsMin = Math.min(roundsMin, game.rounds);
    roundsMax = Math.max(roundsMax, game.rounds);
    actionsTotal += game.actionCount;
    for (const kind of ENEMY_KINDS) deaths[kind] += game.deaths[kind];
    reached[String(game.level)] = (reached[String(game.level)] ?? 0) + 1;
    hashes.push(game.finalHash);
    options.onProgress?.(i + 1, options.games);
  }
  const games = options.games;
  const levelsReached: Record<string, number> = {};
  for (const key of Object.keys(reached).sort((a, b) => Number(a) - Number(b))) levelsReached[key] = reached[key] ?? 0;
  return {
    first,
    summary: {
      seed: options.seed,
      games,
      policy: options.policy,
      sameSeed: options.sameSeed === true,
      gameSeeds: options.sameSeed
        ? `${options.seed} for every game; the policy's choices are seeded from ${options.seed}-<i>, i = ${from}..${Math.max(from, from + games - 1)}`
        : `${options.seed}-<i> for i = ${from}..${Math.max(from, from + games - 1)}`,
      maxRounds,
      wins,
      losses,
      capped,
      winRate: games > 0 ? round2((wins / games) * 100) : 0,
      rounds: {
        mean: games > 0 ? round2(roundsTotal / games) : 0,
        min: games > 0 ? roundsMin : 0,
        max: roundsMax,
      },
      actions: { total: actionsTotal, meanPerGame: games > 0 ? round2(actionsTotal / games) : 0 },
      deathsByEnemy: deaths,
      levelsReached,
      finalHash: hashState(hashes),
    },
  };
}
