/**
 * Money as integer cents, parsed from and written to decimal text with string and integer operations
 * only: 0.1 + 0.2 is 30 cents here, never 0.30000000000000004 dollars.
 */

/** The largest value one entry may hold: 999,999,999,999.99 (well inside exact integer range). */
export const MAX_CENTS = 99_999_999_999_999;

export type CentsParse =
  | { ok: true; cents: number }
  | { ok: false; reason: 'not-a-number' | 'negative' | 'too-precise' | 'too-large' };

/** `$1,234.5`, `1234.50`, `.5`, `12` and plain numbers; thousands separators must be well placed. */
const DECIMAL = /^(-)?\$?((?:\d{1,3}(?:,\d{3})+)|\d*)(?:\.(\d*))?$/;
/**
 * A decimal comma: `25,50`, `25,5`, `1.234,56` (points then group thousands). One or two digits after
 * the comma make it a decimal comma; three (`1,234`) stay a thousands separator, as above.
 */
const DECIMAL_COMMA = /^(-)?\$?(\d{1,3}(?:\.\d{3})+|\d*),(\d{1,2})$/;

/** Parses a money value given as text or as a JSON number (its shortest decimal text) into cents. */
export function parseCents(value: string | number): CentsParse {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { ok: false, reason: 'not-a-number' };
    text = String(value);
    // Exponent notation only appears for very large or very small numbers.
    if (/e/i.test(text)) return { ok: false, reason: Math.abs(value) >= 1 ? 'too-large' : 'too-precise' };
  } else {
    text = value.trim().replace(/\s+/g, '');
    const comma = DECIMAL_COMMA.exec(text);
    if (comma) text = `${comma[1] ?? ''}${(comma[2] ?? '').replace(/\./g, '')}.${comma[3] ?? ''}`;
  }
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, reason: 'not-a-number' };
  const [, minus, wholeRaw = '', fractionRaw] = match;
  const whole = wholeRaw.replace(/,/g, '');
  if (whole === '' && (fractionRaw === undefined || fractionRaw === '')) return { ok: false, reason: 'not-a-number' };
  const fraction = (fractionRaw ?? '').replace(/0+$/, '');
  if (fraction.length > 2) return { ok: false, reason: 'too-precise' };
  const digits = (whole.replace(/^0+/, '') || '0') + fraction.padEnd(2, '0');
  if (digits.length > String(MAX_CENTS).length || Number(digits) > MAX_CENTS) return { ok: false, reason: 'too-large' };
  const cents = Number(digits);
  if (minus && cents !== 0) return { ok: false, reason: 'negative' };
  return { ok: true, cents };
}

/** Cents as decimal text without grouping: 1234567 -> '12345.67'. */
export function centsToDecimal(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Cents for people: 1234567 -> '$12,345.67'. */
export function formatUsd(cents: number): string {
  const [whole = '0', fraction = '00'] = centsToDecimal(Math.abs(cents)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}$${grouped}.${fraction}`;
}
