import { z } from 'zod';

/** The longest action log the server replays (a 200-round game is well under 10,000 actions). */
export const DAILY_MAX_ACTIONS = 20_000;

export const towerDailyMessages = {
  notADate: 'A daily tower date is a real day written YYYY-MM-DD',
  wrongDay: "Only today's daily tower (UTC) can be submitted, or yesterday's for a game that crossed midnight",
  tooLong: `A daily game has at most ${DAILY_MAX_ACTIONS} actions`,
  noActions: 'The action log must be a list of actions',
} as const;

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
