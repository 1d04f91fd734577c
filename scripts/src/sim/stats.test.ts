import { describe, expect, it } from 'vitest';
import { histogram, proportionDifference, quantile, wilson } from './stats.ts';

describe('Wilson interval', () => {
  // Newcombe, "Two-sided confidence intervals for the single proportion" (Stat Med 1998), Table I, method 3.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i of %i is %f to %f', (x, n, low, high) => {
    const interval = wilson(x, n);
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });

  it('is 0 to 1 with no games, and never leaves 0..1', () => {
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
    expect(wilson(10, 10).high).toBeCloseTo(1, 12);
    expect(wilson(0, 10).low).toBe(0);
  });
});

describe('difference of two win rates', () => {
  // Newcombe, "Interval estimation for the difference between independent proportions" (Stat Med 1998),
  // Table II, method 10 (the score interval from two Wilson intervals).
  it.each([
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.8090],
  ])('%i/%i - %i/%i is %f to %f', (x1, n1, x2, n2, low, high) => {
    const d = proportionDifference(x1, n1, x2, n2);
    expect(d.low).toBeCloseTo(low, 3);
    expect(d.high).toBeCloseTo(high, 3);
    expect(d.significant).toBe(low > 0 || high < 0);
  });
});

describe('distributions', () => {
  it('takes nearest-rank quantiles', () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(quantile(values, 0.5)).toBe(5);
    expect(quantile(values, 0.95)).toBe(10);
    expect(quantile([7], 0.95)).toBe(7);
    expect(quantile([], 0.5)).toBe(0);
  });

  it('bins whole numbers into at most maxBins bins', () => {
    expect(histogram([3, 3, 4, 6])).toEqual({ start: 3, width: 1, counts: [2, 1, 0, 1] });
    const wide = histogram([0, 99], 10);
    expect(wide).toEqual({ start: 0, width: 10, counts: [1, 0, 0, 0, 0, 0, 0, 0, 0, 1] });
  });
});
