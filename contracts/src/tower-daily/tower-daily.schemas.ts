import { z } from 'zod';
import { DAILY_PAST_DAYS, DAILY_PERIODS, type DailyPeriod } from './tower-daily.rules.ts';

/** The longest action log the server replays (a 200-round game is well under 10,000 actions). */
export const DAILY_MAX_ACTIONS = 20_000;

export const towerDailyMessages = {
  notADate: 'A daily tower date is a real day written YYYY-MM-DD',
  wrongDay: "Only today's daily tower (UTC) can be submitted, or yesterday's for a game that crossed midnight",
  tooLong: `A daily game has at most ${DAILY_MAX_ACTIONS} actions`,
  noActions: 'The action log must be a list of actions',
  notInCalendar: `Only today's daily tower and the ${DAILY_PAST_DAYS} days before it can be viewed`,
  notAPeriod: 'The leaderboard is of the week or the month',
} as const;

export const dailyDayInput = z.object({
  date: z.string({ error: towerDailyMessages.notADate }).regex(/^\d{4}-\d{2}-\d{2}$/, towerDailyMessages.notADate),
});
export type DailyDayInput = z.infer<typeof dailyDayInput>;

export const dailyLeaderboardInput = z.object({ period: z.enum(DAILY_PERIODS, { error: towerDailyMessages.notAPeriod }) });
export type DailyLeaderboardInput = z.infer<typeof dailyLeaderboardInput>;

/** A member's standing over a period, from their best verified game of each day they played. */
export interface DailyStanding {
  rank: number;
  member: string;
  /** Days played (one best game each). */
  days: number;
  /** Days escaped. */
  wins: number;
  /** Floors reached, summed over the days. */
  floors: number;
  /** Rounds, summed over the days: fewer breaks a tie. */
  rounds: number;
}

export interface DailyLeaderboard {
  period: DailyPeriod;
  /** The period's first and last day (UTC, YYYY-MM-DD): Monday to Sunday, or the calendar month. */
  from: string;
  to: string;
  /** Most days escaped, then most floors, then fewest rounds; equal on all three share a rank. */
  table: DailyStanding[];
}

/**
 * A finished daily game: the day and the action log, nothing else. The server replays the log on the day's
 * seed and computes the result itself, so there is no score to send.
 */
export const submitDailyInput = z.object({
  date: z.string({ error: towerDailyMessages.notADate }).regex(/^\d{4}-\d{2}-\d{2}$/, towerDailyMessages.notADate),
  actions: z.array(z.unknown(), { error: towerDailyMessages.noActions }).max(DAILY_MAX_ACTIONS, towerDailyMessages.tooLong),
});
export type SubmitDailyInput = z.infer<typeof submitDailyInput>;

export interface DailyResult {
  rank: number;
  member: string;
  rounds: number;
  floors: number;
  won: boolean;
}

export interface DailyToday {
  date: string;
  seed: string;
  /** Best result per member, best first: won, then floors reached, then rounds survived. */
  table: DailyResult[];
}

export interface DailySubmitted {
  /** This game's result, as the server computed it. */
  result: { rounds: number; floors: number; won: boolean };
  /** True when it became the member's best of the day (false: an earlier game of the day was better). */
  best: boolean;
  today: DailyToday;
}
