import { apply } from './apply.ts';
import { createGame } from './create.ts';
import type { GameState } from './types.ts';

/**
 * The daily tower: every member plays the same seed on a given (UTC) day, made from the date alone so
 * the browser, the server and `npm run sim -- --daily DATE` agree without asking each other.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isDailyDate(date: string): boolean {
  const match = DATE.exec(date);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

const notADay = (date: string) => `A daily tower date is a real day written YYYY-MM-DD, got "${date}"`;

/** The seed of the day's tower: `daily-YYYY-MM-DD`. Throws on anything but a real date. */
export function dailySeed(date: string): string {
  if (!isDailyDate(date)) throw new Error(notADay(date));
  return `daily-${date}`;
}

/** The UTC day of an instant as YYYY-MM-DD: the day whose tower is played at that moment. */
export function dailyDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The day `days` after `date` (before it when negative), YYYY-MM-DD: the calendar of past dailies. */
export function shiftDailyDate(date: string, days: number): string {
  if (!isDailyDate(date)) throw new Error(notADay(date));
  return dailyDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000));
}

/** What the server keeps of a verified daily game: computed from the replayed state, never from a claim. */
export interface DailyScore {
  won: boolean;
  /** Rounds the team came through: the round it escaped in when won, the rounds before the fatal one when lost. */
  rounds: number;
  /** Floors reached, counting the first (1 = died on the first floor). */
  floors: number;
}

export type DailyVerdict = ({ ok: true } & DailyScore) | { ok: false; message: string };

/**
 * Replays an untrusted action log on the day's seed and scores the final state. Refused when an action is
 * not legal where it stands (the first one is named) or when the log stops before the game is over.
 */
export function verifyDailyGame(date: string, actions: readonly unknown[]): DailyVerdict {
  if (!isDailyDate(date)) return { ok: false, message: notADay(date) };
  let state = createGame({ seed: dailySeed(date) });
  for (const [index, action] of actions.entries()) {
    const result = apply(state, action);
    if (!result.ok) return { ok: false, message: `Action ${index + 1} of ${actions.length} is not legal on replay: ${result.message}` };
    state = result.state;
  }
  if (state.status === 'playing') return { ok: false, message: 'The game is not over yet: only a finished game counts' };
  return { ok: true, ...dailyScore(state) };
}

/** The score of a finished game's state (see DailyScore). */
export function dailyScore(state: GameState): DailyScore {
  const won = state.status === 'won';
  return { won, rounds: won ? state.round : Math.max(0, state.round - 1), floors: state.levelIndex + 1 };
}
