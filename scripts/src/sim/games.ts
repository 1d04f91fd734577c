/**
 * One row per game of a report (games.csv, the report's statistics), and the playing of a range of
 * games of a run. The same spec and range always give the same rows, in whatever thread they are played.
 */
import { rulesWith } from '@site/game-engine';
import type { EnemyKind, RuleOverrides, Rules } from '@site/game-engine';
import type { PolicyName } from './policies.ts';
import { gameSeed, playGame } from './simulate.ts';
import type { Outcome } from './simulate.ts';

/** A run of a report: one policy under one set of rules, game i on the seed `${seed}-${i}`. */
export interface RunSpec {
  policy: PolicyName;
  seed: string;
  games: number;
  maxRounds: number;
  /** The rules variant ({} = the current rules). */
  overrides: RuleOverrides;
}

export interface GameRow {
  index: number;
  seed: string;
  outcome: Outcome;
  rounds: number;
  /** 1-based floor the game ended on. */
  floor: number;
  actions: number;
  deaths: Record<EnemyKind, number>;
  survivorsLeft: number;
  /** Fewest king moves any survivor stood from the top floor's stairs (null: never got there). */
  closestToTop: number | null;
  hash: string;
}

const rulesCache = new Map<string, Rules>();

/** The Rules of a variant; throws with the engine's message when an override is not valid. */
export function rulesOfOverrides(overrides: RuleOverrides): Rules {
  const key = JSON.stringify(overrides);
  const cached = rulesCache.get(key);
  if (cached) return cached;
  const verdict = rulesWith(overrides);
  if (!verdict.ok) throw new Error(verdict.message);
  rulesCache.set(key, verdict.rules);
  return verdict.rules;
}

/** Plays games [from, from + count) of a run. */
export function playRange(spec: RunSpec, from: number, count: number): GameRow[] {
  const rules = rulesOfOverrides(spec.overrides);
  const rows: GameRow[] = [];
  for (let index = from; index < from + count; index++) {
    const game = playGame(gameSeed(spec.seed, index), spec.policy, { maxRounds: spec.maxRounds, rules });
    rows.push({
      index,
      seed: game.seed,
      outcome: game.outcome,
      rounds: game.rounds,
      floor: game.level,
      actions: game.actionCount,
      deaths: game.deaths,
      survivorsLeft: game.survivorsLeft,
      closestToTop: game.closestToTop,
      hash: game.finalHash,
    });
  }
  return rows;
}
