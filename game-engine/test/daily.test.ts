import { describe, expect, it } from 'vitest';
import { createGame, dailyDate, dailySeed, hashState, isDailyDate } from '../src/index.ts';

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
