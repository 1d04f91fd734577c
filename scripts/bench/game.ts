/**
 * npm run bench:game - speed of the tower engine on one core (single thread, nothing in parallel).
 *
 *   1. Records the action logs of RANDOM_GAMES random and GREEDY_GAMES greedy games (not timed).
 *   2. Times `apply` alone replaying those logs from prebuilt start states: enemy phases run inside
 *      `apply`, so they are included. One warm-up pass, then ROUNDS timed passes; the median is printed.
 *   3. Times whole greedy games (policy + apply, from createGame to the end): warm-up, then ROUNDS
 *      timed batches; the median is printed.
 *   4. Times the daily tower's server check (`verifyDailyGame`: replay of a submitted log on the day's seed
 *      and the score from the replayed state) on the longest game the policies play on today's seed
 *      (DAILY_CANDIDATES games each): warm-up, then DAILY_VERIFICATIONS timed checks; mean and p99 printed,
 *      and the cost per round scaled to a 100-round game (no policy survives that long).
 * Goal: >= 100,000 actions/s for step 2; under 50 ms to verify a 100-round daily game. Bounded: a few seconds to ~20 s on a slow machine.
 */
import { apply, createGame, dailyDate, dailySeed, verifyDailyGame } from '@site/game-engine';
import type { Action, GameState } from '@site/game-engine';
import { createPolicy, POLICY_NAMES } from '../src/sim/policies.ts';
import type { PolicyName } from '../src/sim/policies.ts';
import { playGame } from '../src/sim/simulate.ts';
import { median } from './stats.ts';

const RANDOM_GAMES = 60;
const GREEDY_GAMES = 60;
const ROUNDS = 7;
const WHOLE_GAMES_PER_ROUND = 40;
const GOAL_ACTIONS_PER_SECOND = 100_000;
const DAILY_CANDIDATES = 100;
const DAILY_VERIFICATIONS = 200;
const GOAL_DAILY_VERIFY_MS = 50;

interface Log {
  start: GameState;
  actions: Action[];
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function record(policy: PolicyName, games: number): { logs: Log[]; enemyPhases: number } {
  const logs: Log[] = [];
  let enemyPhases = 0;
  for (let i = 0; i < games; i++) {
    const seed = `bench-${policy}-${i}`;
    const game = playGame(seed, policy, { record: true });
    const actions = game.actions ?? [];
    logs.push({ start: createGame({ seed }), actions });
    enemyPhases += game.finalState.round - 1 + (game.outcome === 'lost' ? 1 : 0);
  }
  return { logs, enemyPhases };
}

/** Applies every log once; returns the number of actions applied. */
function applyAll(logs: readonly Log[]): number {
  let count = 0;
  for (const log of logs) {
    let state = log.start;
    for (const action of log.actions) {
      const result = apply(state, action);
      if (!result.ok) throw new Error(`Recorded action rejected: ${result.message}`);
      state = result.state;
    }
    count += log.actions.length;
  }
  return count;
}

function timeApply(logs: readonly Log[]): { perSecond: number; actions: number } {
  const actions = applyAll(logs); // warm-up
  const rates: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    applyAll(logs);
    rates.push(actions / ((performance.now() - t0) / 1000));
  }
  return { perSecond: median(rates), actions };
}

/** One whole greedy game, policy included; returns the number of actions. */
function greedyGame(seed: string): number {
  const policy = createPolicy('greedy', seed);
  let state = createGame({ seed });
  let actions = 0;
  while (state.status === 'playing' && actions < 20_000) {
    const result = apply(state, policy.choose(state));
    if (!result.ok) throw new Error(`Greedy chose a rejected action: ${result.message}`);
    state = result.state;
    actions += 1;
  }
  return actions;
}

function timeWholeGames(): { gamesPerSecond: number; actionsPerSecond: number } {
  for (let i = 0; i < 10; i++) greedyGame(`bench-whole-warmup-${i}`);
  const games: number[] = [];
  const actions: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let count = 0;
    const t0 = performance.now();
    for (let i = 0; i < WHOLE_GAMES_PER_ROUND; i++) count += greedyGame(`bench-whole-${i}`);
    const seconds = (performance.now() - t0) / 1000;
    games.push(WHOLE_GAMES_PER_ROUND / seconds);
    actions.push(count / seconds);
  }
  return { gamesPerSecond: median(games), actionsPerSecond: median(actions) };
}

/** The longest (most rounds) game the policies play on the day's seed, as its action log. */
function longestDailyGame(date: string): { policy: string; rounds: number; actions: Action[] } {
  let best = { policy: '', rounds: -1, actions: [] as Action[] };
  for (const policy of POLICY_NAMES) {
    for (let i = 0; i < DAILY_CANDIDATES; i++) {
      const game = playGame(dailySeed(date), policy, { record: true, policyKey: `bench-daily-${i}` });
      if (game.outcome !== 'capped' && game.finalState.round > best.rounds) best = { policy, rounds: game.finalState.round, actions: game.actions ?? [] };
    }
  }
  return best;
}

function timeDailyVerify(date: string, actions: readonly Action[]): { mean: number; p99: number } {
  const check = () => {
    const verdict = verifyDailyGame(date, actions);
    if (!verdict.ok) throw new Error(`The recorded daily game was refused: ${verdict.message}`);
  };
  for (let i = 0; i < 20; i++) check();
  const times: number[] = [];
  for (let i = 0; i < DAILY_VERIFICATIONS; i++) {
    const t0 = performance.now();
    check();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { mean, p99: times[Math.ceil(times.length * 0.99) - 1] ?? 0 };
}

const started = performance.now();
console.log(`bench:game - node ${process.version}, one core (single thread), median of ${ROUNDS} timed rounds after a warm-up`);

const random = record('random', RANDOM_GAMES);
const greedy = record('greedy', GREEDY_GAMES);
const all = [...random.logs, ...greedy.logs];
const count = (logs: Log[]): number => logs.reduce((n, l) => n + l.actions.length, 0);
console.log(
  `recorded (not timed): ${RANDOM_GAMES} random games (${fmt(count(random.logs))} actions, ${fmt(random.enemyPhases)} enemy phases), ` +
    `${GREEDY_GAMES} greedy games (${fmt(count(greedy.logs))} actions, ${fmt(greedy.enemyPhases)} enemy phases)`,
);

const mixed = timeApply(all);
const randomOnly = timeApply(random.logs);
const greedyOnly = timeApply(greedy.logs);
console.log(`apply, all recorded logs:      ${fmt(mixed.perSecond).padStart(9)} actions/s (${fmt(mixed.actions)} actions per round, enemy phases included)`);
console.log(`apply, random-policy logs:     ${fmt(randomOnly.perSecond).padStart(9)} actions/s`);
console.log(`apply, greedy-policy logs:     ${fmt(greedyOnly.perSecond).padStart(9)} actions/s`);

const whole = timeWholeGames();
console.log(
  `whole greedy games:            ${whole.gamesPerSecond.toFixed(1).padStart(9)} games/s (${fmt(whole.actionsPerSecond)} actions/s with the policy choosing, ${WHOLE_GAMES_PER_ROUND} games per round)`,
);

const day = dailyDate(new Date());
const longest = longestDailyGame(day);
const verify = timeDailyVerify(day, longest.actions);
const per100 = (verify.mean / longest.rounds) * 100;
console.log(
  `daily verify (${day}): longest of ${DAILY_CANDIDATES} games per policy is a ${longest.policy} game of ${longest.rounds} rounds, ${longest.actions.length} actions; ` +
    `mean ${verify.mean.toFixed(2)} ms, p99 ${verify.p99.toFixed(2)} ms over ${DAILY_VERIFICATIONS} verifications`,
);
console.log(
  `daily verify scaled to a 100-round game: ~${per100.toFixed(1)} ms (goal < ${GOAL_DAILY_VERIFY_MS} ms: ${per100 < GOAL_DAILY_VERIFY_MS ? 'met' : 'NOT met'})`,
);

const met = mixed.perSecond >= GOAL_ACTIONS_PER_SECOND;
console.log(`goal >= ${fmt(GOAL_ACTIONS_PER_SECOND)} actions/s (apply, all logs): ${met ? 'met' : 'NOT met'}`);
console.log(`total bench time ${((performance.now() - started) / 1000).toFixed(1)} s`);
