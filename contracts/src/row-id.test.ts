import { describe, expect, it } from 'vitest';
import { MAX_ROW_ID, rowId } from './row-id.ts';

describe('rowId', () => {
  const one = rowId('Task must be named by its id');
  const each = rowId({ notNumber: 'not a number', notWhole: 'not whole', notPositive: 'not positive', tooLarge: 'too large' });

  it('accepts every id an integer column can hold', () => {
    for (const id of [1, 2, 1000, MAX_ROW_ID]) expect(one.parse(id)).toBe(id);
  });

  it('refuses a number past an integer column with the area message, not a database error', () => {
    for (const id of [MAX_ROW_ID + 1, Number.MAX_SAFE_INTEGER, 2 ** 63, 1e308]) {
      expect(one.safeParse(id).error?.issues[0]?.message).toBe('Task must be named by its id');
    }
    // Past 2^53 zod already calls the number not whole, so 'too large' is for the safe integers past the column.
    for (const id of [MAX_ROW_ID + 1, Number.MAX_SAFE_INTEGER]) expect(each.safeParse(id).error?.issues[0]?.message).toBe('too large');
  });

  it('names each other way an id can be wrong', () => {
    expect(each.safeParse('3').error?.issues[0]?.message).toBe('not a number');
    expect(each.safeParse(1.5).error?.issues[0]?.message).toBe('not whole');
    expect(each.safeParse(0).error?.issues[0]?.message).toBe('not positive');
    expect(each.safeParse(-4).error?.issues[0]?.message).toBe('not positive');
    expect(one.safeParse(null).error?.issues[0]?.message).toBe('Task must be named by its id');
  });
});
