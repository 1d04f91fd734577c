import type { Rng } from './rng.ts';
import type { Die } from './types.ts';

/** Rolls one die: a face chosen by its skew weights (fair when skew is null). */
export function rollDie(rng: Rng, die: Die): number {
  const index = die.skew ? rng.weighted(die.skew) : rng.int(die.faces.length);
  return die.faces[index]?.value ?? 0;
}

/** Rolls every die once; returns each face value. */
export function rollDice(rng: Rng, dice: readonly Die[]): number[] {
  const rolls: number[] = [];
  for (const die of dice) rolls.push(rollDie(rng, die));
  return rolls;
}

export function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
