import { dailyDate, dailySeed, isDailyDate, shiftDailyDate, verifyDailyGame } from '@site/game-engine';
import {
  DAILY_PAST_DAYS,
  towerDailyMessages,
  type DailyDayInput,
  type DailyLeaderboard,
  type DailyLeaderboardInput,
  type DailySubmitted,
  type DailyToday,
  type SubmitDailyInput,
} from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import * as repo from './tower-daily.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Today's (UTC) daily tower: the date, its seed and the table of members' best results. */
export async function today(deps: AppDeps, now = new Date()): Promise<DailyToday> {
  return tableOf(deps, dailyDate(now));
}

async function tableOf(deps: AppDeps, date: string): Promise<DailyToday> {
  const rows = await repo.dayTable(deps.db, date);
  return {
    date,
    seed: dailySeed(date),
    table: rows.map((r, i) => ({ rank: i + 1, member: r.name, rounds: r.rounds, floors: r.floors, won: r.won })),
  };
}

/**
 * A finished daily game: replayed on the day's seed with the engine, scored from the replayed state, and kept
 * when it is the member's best of the day. Today's game (UTC), or yesterday's for a game that crossed midnight.
 */
export async function submit(deps: AppDeps, user: SessionUser, input: SubmitDailyInput, now = new Date()): Promise<DailySubmitted> {
  if (!isDailyDate(input.date)) throw new AppError('BAD_REQUEST', towerDailyMessages.notADate);
  const days = [dailyDate(now), dailyDate(new Date(now.getTime() - DAY_MS))];
  if (!days.includes(input.date)) throw new AppError('BAD_REQUEST', towerDailyMessages.wrongDay);
  const verdict = verifyDailyGame(input.date, input.actions);
  if (!verdict.ok) throw new AppError('BAD_REQUEST', verdict.message);
  const result = { rounds: verdict.rounds, floors: verdict.floors, won: verdict.won };
  const best = await repo.keepBest(deps.db, user.id, input.date, result, input.actions);
  return { result, best, today: await tableOf(deps, input.date) };
}

/** A past daily's (or today's) table of verified results: today and the DAILY_PAST_DAYS days before it. */
export async function day(deps: AppDeps, input: DailyDayInput, now = new Date()): Promise<DailyToday> {
  if (!isDailyDate(input.date)) throw new AppError('BAD_REQUEST', towerDailyMessages.notADate);
  const today = dailyDate(now);
  if (input.date > today || input.date < shiftDailyDate(today, -DAILY_PAST_DAYS)) throw new AppError('BAD_REQUEST', towerDailyMessages.notInCalendar);
  return tableOf(deps, input.date);
}

/** The first and last day of the week (Monday to Sunday) or the calendar month that holds `today`. */
export function periodDays(period: DailyLeaderboardInput['period'], today: string): { from: string; to: string } {
  if (period === 'week') {
    const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
    const from = shiftDailyDate(today, -weekday);
    return { from, to: shiftDailyDate(from, 6) };
  }
  const [y, m] = today.split('-').map(Number) as [number, number];
  return { from: `${today.slice(0, 7)}-01`, to: dailyDate(new Date(Date.UTC(y, m, 0))) };
}

/**
 * The family leaderboard of the week or the month, from the verified daily results only (each member's best
 * game of each day, as kept by submit): most days escaped, then most floors, then fewest rounds.
 */
export async function leaderboard(deps: AppDeps, input: DailyLeaderboardInput, now = new Date()): Promise<DailyLeaderboard> {
  const { from, to } = periodDays(input.period, dailyDate(now));
  const rows = await repo.standings(deps.db, from, to);
  const key = (r: (typeof rows)[number]) => `${r.wins}/${r.floors}/${r.rounds}`;
  return {
    period: input.period,
    from,
    to,
    table: rows.map((r, i) => {
      const first = rows.findIndex((other) => key(other) === key(r));
      return { rank: (first === -1 ? i : first) + 1, member: r.name, days: r.days, wins: r.wins, floors: r.floors, rounds: r.rounds };
    }),
  };
}
