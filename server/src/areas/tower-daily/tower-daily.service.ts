import { dailyDate, dailySeed, isDailyDate, verifyDailyGame } from '@site/game-engine';
import { towerDailyMessages, type DailySubmitted, type DailyToday, type SubmitDailyInput } from '@site/contracts';
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
