import { describe, expect, it } from 'vitest';
import { apply, createGame, dailyDate, dailyScore, dailySeed, hashState, isDailyDate, verifyDailyGame, type Action } from '../src/index.ts';

describe('the daily tower seed', () => {
  it('is made from the date alone: the same day gives the same game, another day another game', () => {
    expect(dailySeed('2026-11-24')).toBe('daily-2026-11-24');
    expect(hashState(createGame({ seed: dailySeed('2026-11-24') }))).toBe(hashState(createGame({ seed: dailySeed('2026-11-24') })));
    expect(hashState(createGame({ seed: dailySeed('2026-11-24') }))).not.toBe(hashState(createGame({ seed: dailySeed('2026-11-25') })));
  });

  it('takes the UTC day of an instant', () => {
    expect(dailyDate(new Date('2026-11-24T23:59:59.999Z'))).toBe('2026-11-24');
    expect(dailyDate(new Date('2026-11-25T00:30:00+01:00'))).toBe('2026-11-24');
  });

  it('accepts only real days written YYYY-MM-DD', () => {
    expect(isDailyDate('2028-02-29')).toBe(true);
    for (const bad of ['2026-02-29', '2026-13-01', '2026-11-31', '2026-1-05', '24.11.2026', '2026-11-24T00:00', '']) {
      expect(isDailyDate(bad), bad).toBe(false);
    }
    expect(() => dailySeed('2026-02-30')).toThrow('A daily tower date is a real day written YYYY-MM-DD, got "2026-02-30"');
  });
});

describe('verifying a daily game', () => {
  const date = '2026-11-24';
  const passUntilOver = () => {
    let state = createGame({ seed: dailySeed(date) });
    const actions: Action[] = [];
    while (state.status === 'playing') {
      const result = apply(state, { type: 'pass' });
      if (!result.ok) throw new Error(result.message);
      state = result.state;
      actions.push({ type: 'pass' });
    }
    return { state, actions };
  };

  it('scores a finished log from its own replay', () => {
    const { state, actions } = passUntilOver();
    expect(verifyDailyGame(date, actions)).toEqual({ ok: true, won: false, rounds: state.round - 1, floors: 1 });
    expect(dailyScore({ ...state, status: 'won', levelIndex: 1 })).toEqual({ won: true, rounds: state.round, floors: 2 });
  });

  it('refuses an illegal action, an action after the end, an unfinished game and a bad date', () => {
    const { actions } = passUntilOver();
    const tampered: unknown[] = [...actions];
    tampered[2] = { type: 'move', x: 99, y: 99 };
    expect(verifyDailyGame(date, tampered)).toMatchObject({ ok: false, message: expect.stringMatching(/^Action 3 of \d+ is not legal on replay: /) });
    expect(verifyDailyGame(date, [...actions, { type: 'pass' }])).toMatchObject({ ok: false, message: expect.stringContaining('not legal on replay') });
    expect(verifyDailyGame(date, actions.slice(0, -1))).toEqual({ ok: false, message: 'The game is not over yet: only a finished game counts' });
    expect(verifyDailyGame('2026-02-30', actions)).toMatchObject({ ok: false });
  });
});
