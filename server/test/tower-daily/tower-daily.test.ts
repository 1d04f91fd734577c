import { describe, expect, it } from 'vitest';
import { towerDailyMessages as m } from '@site/contracts';
import { apply, createGame, dailyDate, dailySeed, legalActions, type Action } from '@site/game-engine';
import { callerFor, cookieFor, createUser, databases, useTestServer } from '../helpers.ts';
import { day, leaderboard, periodDays, submit } from '../../src/areas/tower-daily/tower-daily.service.ts';
import { findResult } from '../../src/areas/tower-daily/tower-daily.repository.ts';

const DAY = '2026-11-24';
const NOON = new Date(`${DAY}T12:00:00Z`);

/**
 * A real game on the day's seed, played with the engine to its end: 'attacker' attacks whenever it can and
 * passes otherwise; 'passer' only passes (and so dies sooner).
 */
function playDaily(date: string, style: 'attacker' | 'passer'): { actions: Action[]; round: number; levelIndex: number } {
  let state = createGame({ seed: dailySeed(date) });
  const actions: Action[] = [];
  while (state.status === 'playing' && actions.length < 5000) {
    const attack = style === 'attacker' ? legalActions(state).find((a) => a.type === 'attack') : undefined;
    const action: Action = attack ?? { type: 'pass' };
    const result = apply(state, action);
    if (!result.ok) throw new Error(result.message);
    state = result.state;
    actions.push(action);
  }
  if (state.status !== 'lost') throw new Error(`expected the scripted game to end, got ${state.status}`);
  return { actions, round: state.round, levelIndex: state.levelIndex };
}

describe.each(databases)('daily tower (%s)', (kind) => {
  const s = useTestServer(kind);
  const attacker = playDaily(DAY, 'attacker');
  const passer = playDaily(DAY, 'passer');

  it('accepts a finished game, scoring it from the replay, and shows it in the day table', async () => {
    const amy = await createUser(s.deps, 'amy', 3);
    const done = await submit(s.deps, amy, { date: DAY, actions: attacker.actions }, NOON);
    expect(done.result).toEqual({ won: false, rounds: attacker.round - 1, floors: attacker.levelIndex + 1 });
    expect(done.best).toBe(true);
    expect(done.today).toEqual({ date: DAY, seed: `daily-${DAY}`, table: [{ rank: 1, member: 'amy', ...done.result }] });
    const row = await findResult(s.db, amy.id, DAY);
    expect(row?.actions).toEqual(attacker.actions);
  });

  it('refuses a tampered log, a log of an unfinished game and another day, storing nothing', async () => {
    const amy = await createUser(s.deps, 'amy', 3);
    const changed = attacker.actions.map((a) => ({ ...a }));
    const attackAt = changed.findIndex((a) => a.type === 'attack');
    changed[attackAt] = { ...changed[attackAt], x: 0, y: 0 } as Action;
    await expect(submit(s.deps, amy, { date: DAY, actions: changed }, NOON)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining(`Action ${attackAt + 1} of ${changed.length} is not legal on replay`),
    });
    // One more pass after the end: the game is over, so it cannot be a real log.
    await expect(submit(s.deps, amy, { date: DAY, actions: [...attacker.actions, { type: 'pass' }] }, NOON)).rejects.toMatchObject({
      message: expect.stringContaining('not legal on replay'),
    });
    await expect(submit(s.deps, amy, { date: DAY, actions: attacker.actions.slice(0, -1) }, NOON)).rejects.toMatchObject({
      message: 'The game is not over yet: only a finished game counts',
    });
    await expect(submit(s.deps, amy, { date: DAY, actions: [{ type: 'teleport' }] }, NOON)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    // Another day's seed is another game: the same log does not replay there.
    await expect(submit(s.deps, amy, { date: '2026-11-25', actions: attacker.actions }, new Date('2026-11-25T09:00:00Z'))).rejects.toMatchObject({
      message: expect.stringContaining('not legal on replay'),
    });
    await expect(submit(s.deps, amy, { date: '2026-11-22', actions: attacker.actions }, NOON)).rejects.toMatchObject({ message: m.wrongDay });
    await expect(submit(s.deps, amy, { date: '2026-11-25', actions: attacker.actions }, NOON)).rejects.toMatchObject({ message: m.wrongDay });
    await expect(submit(s.deps, amy, { date: '2026-02-30', actions: attacker.actions }, NOON)).rejects.toMatchObject({ message: m.notADate });
    expect(await findResult(s.db, amy.id, DAY)).toBeUndefined();
  });

  it("takes yesterday's game just after midnight (a game that crossed it)", async () => {
    const amy = await createUser(s.deps, 'amy', 3);
    const done = await submit(s.deps, amy, { date: DAY, actions: passer.actions }, new Date('2026-11-25T00:10:00Z'));
    expect(done.today.date).toBe(DAY);
  });

  it('keeps the best game of the day per member, and ranks two members', async () => {
    const amy = await createUser(s.deps, 'amy', 3);
    const bob = await createUser(s.deps, 'bob', 3);
    expect(attacker.round).toBeGreaterThan(passer.round);
    const first = await submit(s.deps, amy, { date: DAY, actions: passer.actions }, NOON);
    const better = await submit(s.deps, amy, { date: DAY, actions: attacker.actions }, NOON);
    expect([first.best, better.best]).toEqual([true, true]);
    const worse = await submit(s.deps, amy, { date: DAY, actions: passer.actions }, NOON);
    expect(worse.best).toBe(false);
    expect(worse.result.rounds).toBe(passer.round - 1);
    await submit(s.deps, bob, { date: DAY, actions: passer.actions }, NOON);
    const table = (await submit(s.deps, bob, { date: DAY, actions: passer.actions }, NOON)).today.table;
    expect(table).toEqual([
      { rank: 1, member: 'amy', rounds: attacker.round - 1, floors: 1, won: false },
      { rank: 2, member: 'bob', rounds: passer.round - 1, floors: 1, won: false },
    ]);
    expect((await findResult(s.db, amy.id, DAY))?.actions).toEqual(attacker.actions);
  });

  it('over HTTP: takes only the log (a claimed score is ignored) and answers a tampered log with a 400 message', async () => {
    const cookie = await cookieFor(s.deps, 3, 'cat');
    const today = dailyDate(new Date());
    const log = playDaily(today, 'passer');
    const post = (body: unknown) =>
      s.app.inject({ method: 'POST', url: '/trpc/towerDaily.submit', headers: { cookie, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const claimed = await post({ date: today, actions: log.actions, rounds: 999, floors: 9, won: true });
    expect(claimed.statusCode).toBe(200);
    expect(claimed.json().result.data.result).toEqual({ rounds: log.round - 1, floors: log.levelIndex + 1, won: false });
    const tampered = await post({ date: today, actions: log.actions.map((a, i) => (i === 0 ? { type: 'move', x: 99, y: 99 } : a)) });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().error.message).toContain('Action 1 of');
    const caller = callerFor(s.deps, await createUser(s.deps, 'dan', 3));
    expect((await caller.towerDaily.today()).table).toEqual([{ rank: 1, member: 'cat', rounds: log.round - 1, floors: log.levelIndex + 1, won: false }]);
  });

  it('shows the verified table of a past day of the last 30, and refuses a day outside them', async () => {
    const amy = await createUser(s.deps, 'amy', 3);
    await submit(s.deps, amy, { date: DAY, actions: attacker.actions }, NOON);
    const later = new Date('2026-12-20T08:00:00Z');
    expect(await day(s.deps, { date: DAY }, later)).toEqual({
      date: DAY,
      seed: `daily-${DAY}`,
      table: [{ rank: 1, member: 'amy', rounds: attacker.round - 1, floors: 1, won: false }],
    });
    expect((await day(s.deps, { date: '2026-12-19' }, later)).table).toEqual([]);
    await expect(day(s.deps, { date: '2026-12-21' }, later)).rejects.toMatchObject({ code: 'BAD_REQUEST', message: m.notInCalendar });
    await expect(day(s.deps, { date: '2026-11-19' }, later)).rejects.toMatchObject({ code: 'BAD_REQUEST', message: m.notInCalendar });
    expect((await day(s.deps, { date: '2026-11-20' }, later)).date).toBe('2026-11-20');
    await expect(day(s.deps, { date: '2026-02-30' }, later)).rejects.toMatchObject({ message: m.notADate });
    // A past day can no longer be submitted: played from the calendar it stays unranked.
    await expect(submit(s.deps, amy, { date: DAY, actions: passer.actions }, later)).rejects.toMatchObject({ message: m.wrongDay });
  });

  it('knows the week (Monday to Sunday) and the month of a day', () => {
    expect(periodDays('week', '2026-11-24')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(periodDays('week', '2026-11-29')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(periodDays('week', '2026-12-31')).toEqual({ from: '2026-12-28', to: '2027-01-03' });
    expect(periodDays('month', '2026-11-24')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(periodDays('month', '2028-02-10')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });

  it('ranks the family over the week and the month from the best verified game per member and day, ties by fewer rounds', async () => {
    const amy = await createUser(s.deps, 'amy', 3);
    const bob = await createUser(s.deps, 'bob', 3);
    const cat = await createUser(s.deps, 'cat', 3);
    const monday = '2026-11-23';
    const earlier = '2026-11-20';
    const mondayGames = { attacker: playDaily(monday, 'attacker'), passer: playDaily(monday, 'passer') };
    const earlierPasser = playDaily(earlier, 'passer');
    // Monday: amy's worse game then her better one (only the best counts), bob and cat the same game.
    await submit(s.deps, amy, { date: monday, actions: mondayGames.passer.actions }, new Date(`${monday}T10:00:00Z`));
    await submit(s.deps, amy, { date: monday, actions: mondayGames.attacker.actions }, new Date(`${monday}T11:00:00Z`));
    await submit(s.deps, bob, { date: monday, actions: mondayGames.passer.actions }, new Date(`${monday}T12:00:00Z`));
    await submit(s.deps, cat, { date: monday, actions: mondayGames.passer.actions }, new Date(`${monday}T12:00:00Z`));
    // Friday before: bob only, in the month but not the week.
    await submit(s.deps, bob, { date: earlier, actions: earlierPasser.actions }, new Date(`${earlier}T09:00:00Z`));
    const now = new Date('2026-11-24T18:00:00Z');
    const week = await leaderboard(s.deps, { period: 'week' }, now);
    const mondayRounds = { amy: mondayGames.attacker.round - 1, passer: mondayGames.passer.round - 1 };
    expect(mondayRounds.amy).toBeGreaterThan(mondayRounds.passer);
    // No one escaped and everyone reached one floor: the fewest rounds rank first; bob and cat tie.
    expect(week).toEqual({
      period: 'week',
      from: '2026-11-23',
      to: '2026-11-29',
      table: [
        { rank: 1, member: 'bob', days: 1, wins: 0, floors: 1, rounds: mondayRounds.passer },
        { rank: 1, member: 'cat', days: 1, wins: 0, floors: 1, rounds: mondayRounds.passer },
        { rank: 3, member: 'amy', days: 1, wins: 0, floors: 1, rounds: mondayRounds.amy },
      ],
    });
    const month = await leaderboard(s.deps, { period: 'month' }, now);
    expect(month.from).toBe('2026-11-01');
    expect(month.table.map((r) => [r.rank, r.member, r.days, r.floors])).toEqual([
      [1, 'bob', 2, 2],
      [2, 'cat', 1, 1],
      [3, 'amy', 1, 1],
    ]);
    // Over HTTP, with the period checked.
    const cookie = await cookieFor(s.deps, 3, 'dan');
    const bad = await s.app.inject({ method: 'GET', url: `/trpc/towerDaily.leaderboard?input=${encodeURIComponent(JSON.stringify({ period: 'year' }))}`, headers: { cookie } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(`period: ${m.notAPeriod}`);
  });
});
