/**
 * The statistics of a balance report: intervals for win rates and their differences, and the shape of a
 * distribution. Pure and exact for the same input, so a report is reproducible byte for byte.
 */

/** The normal quantile of a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

/** The Wilson score interval of `successes` out of `trials` (Newcombe 1998, method 3). */
export function wilson(successes: number, trials: number, z = Z95): Interval {
  if (trials <= 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface Difference extends Interval {
  /** p1 - p2. */
  difference: number;
  /** The interval leaves out 0. */
  significant: boolean;
}

/**
 * The difference of two proportions with its 95% interval from the two Wilson intervals (Newcombe 1998b,
 * method 10, the "hybrid score" interval). It treats the samples as independent, which is conservative
 * for two rule sets played on the same seeds.
 */
export function proportionDifference(x1: number, n1: number, x2: number, n2: number): Difference {
  const p1 = n1 > 0 ? x1 / n1 : 0;
  const p2 = n2 > 0 ? x2 / n2 : 0;
  const a = wilson(x1, n1);
  const b = wilson(x2, n2);
  const difference = p1 - p2;
  const low = difference - Math.sqrt((p1 - a.low) ** 2 + (b.high - p2) ** 2);
  const high = difference + Math.sqrt((a.high - p1) ** 2 + (p2 - b.low) ** 2);
  return { difference, low, high, significant: low > 0 || high < 0 };
}

/** The value at quantile q (0..1) of sorted numbers, nearest rank (always one of the values). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] ?? 0;
}

export interface Histogram {
  /** The first value of the first bin. */
  start: number;
  /** Whole numbers per bin. */
  width: number;
  /** counts[i]: values in [start + i*width, start + (i+1)*width). */
  counts: number[];
}

/** Counts of whole numbers in at most `maxBins` bins of equal whole width. */
export function histogram(values: readonly number[], maxBins = 30): Histogram {
  if (values.length === 0) return { start: 0, width: 1, counts: [] };
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const width = Math.max(1, Math.ceil((max - min + 1) / maxBins));
  const counts = new Array<number>(Math.floor((max - min) / width) + 1).fill(0);
  for (const v of values) counts[Math.floor((v - min) / width)] = (counts[Math.floor((v - min) / width)] ?? 0) + 1;
  return { start: min, width, counts };
}

/** Rounded to `digits` decimals, so JSON numbers do not carry float noise. */
export function rounded(value: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
