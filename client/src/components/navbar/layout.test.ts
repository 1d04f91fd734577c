import { describe, expect, it } from 'vitest';
import { isNarrow, tabWidth } from './layout.ts';

describe('the navbar width rule (units of 118 px)', () => {
  it('collapses below 4 units for members', () => {
    expect(isNarrow(4 * 118 - 1, 1)).toBe(true);
    expect(isNarrow(4 * 118, 1)).toBe(false);
  });
  it('needs 5 units at level 2 and 6 units at level 3', () => {
    expect(isNarrow(5 * 118 - 1, 2)).toBe(true);
    expect(isNarrow(5 * 118, 2)).toBe(false);
    expect(isNarrow(6 * 118 - 1, 3)).toBe(true);
    expect(isNarrow(6 * 118, 3)).toBe(false);
    expect(isNarrow(5 * 118, 3)).toBe(true);
  });
  it('gives tabs 250 px when every tab and the title get 252 px, else shares the width evenly', () => {
    expect(tabWidth(252 * 6, 5)).toBe(250);
    expect(tabWidth(252 * 6 - 1, 5)).toBeCloseTo((252 * 6 - 1) / 6);
    expect(tabWidth(390, 2)).toBe(130);
  });
});
