import { describe, expect, it } from 'vitest';
import { numberText, parseNumber } from './number.ts';

const servings = { label: 'Servings', min: 1, max: 1000 };
const port = { label: 'Port', whole: true, min: 1, max: 65535 };

describe('parseNumber', () => {
  it('reads a decimal comma and a decimal point as the same number', () => {
    expect(parseNumber('2,5', servings)).toEqual({ ok: true, value: 2.5 });
    expect(parseNumber('2.5', servings)).toEqual({ ok: true, value: 2.5 });
    expect(parseNumber(' 12,75 ', servings)).toEqual({ ok: true, value: 12.75 });
    expect(parseNumber('3.', servings)).toEqual({ ok: true, value: 3 });
    expect(parseNumber('1,', servings)).toEqual({ ok: true, value: 1 });
  });

  it('reads blank as no value, for the page to decide whether it is required', () => {
    expect(parseNumber('', port)).toEqual({ ok: true, value: null });
    expect(parseNumber('   ', port)).toEqual({ ok: true, value: null });
  });

  it('refuses a decimal in a whole-number field and says so, never dropping the separator', () => {
    expect(parseNumber('2456,5', port)).toEqual({ ok: false, message: 'Port must be a whole number from 1 to 65535, with no decimals' });
    expect(parseNumber('2456.5', port)).toEqual({ ok: false, message: 'Port must be a whole number from 1 to 65535, with no decimals' });
    expect(parseNumber('1,000', port).ok).toBe(false);
    expect(parseNumber('2456', port)).toEqual({ ok: true, value: 2456 });
  });

  it('refuses text and a second separator instead of reading part of it', () => {
    expect(parseNumber('2,5,1', servings)).toEqual({ ok: false, message: 'Servings must be a number from 1 to 1000, like 2.5 or 2,5' });
    expect(parseNumber('2 1/2', servings).ok).toBe(false);
    expect(parseNumber('2 5', port).ok).toBe(false);
    expect(parseNumber('12a', port)).toEqual({ ok: false, message: 'Port must be a whole number from 1 to 65535' });
    expect(parseNumber('1e3', servings).ok).toBe(false);
    expect(parseNumber(',', servings).ok).toBe(false);
    expect(parseNumber('-', servings).ok).toBe(false);
  });

  it('refuses values out of range with the range in words', () => {
    expect(parseNumber('0', port)).toEqual({ ok: false, message: 'Port must be a whole number from 1 to 65535' });
    expect(parseNumber('65536', port).ok).toBe(false);
    expect(parseNumber('0,5', servings)).toEqual({ ok: false, message: 'Servings must be a number from 1 to 1000' });
    expect(parseNumber('-3', { label: 'Days', whole: true, min: 1 })).toEqual({ ok: false, message: 'Days must be a whole number of at least 1' });
    expect(parseNumber('-3', { label: 'Offset', whole: true })).toEqual({ ok: true, value: -3 });
    expect(parseNumber('7', { label: 'Count', whole: true, max: 5 })).toEqual({ ok: false, message: 'Count must be a whole number of at most 5' });
  });

  it("says every refusal in the area's own words when it has them", () => {
    const repeat = { label: 'The repeat', whole: true, min: 1, max: 365, message: 'Repeat every 1 to 365 days, a whole number' };
    expect(parseNumber('0', repeat)).toEqual({ ok: false, message: 'Repeat every 1 to 365 days, a whole number' });
    expect(parseNumber('2,5', repeat)).toEqual({ ok: false, message: 'Repeat every 1 to 365 days, a whole number' });
    expect(parseNumber('7', repeat)).toEqual({ ok: true, value: 7 });
  });

  it('writes a value back as the field shows it', () => {
    expect(numberText(2.5)).toBe('2.5');
    expect(numberText(4)).toBe('4');
    expect(numberText(null)).toBe('');
  });
});
