import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addWindowsKeyInput,
  claimChange,
  formatKey,
  KEY_LENGTH,
  MASKED_KEY,
  registrationErrors,
  updateWindowsKeyInput,
  windowsKeyMessages as m,
} from './windows-keys.schemas.ts';

const KEY = 'ABCDE-12345-FGHIJ-67890-KLMNO';

describe('formatKey', () => {
  it('strips what is not a letter or digit, upper-cases and puts a dash after every five', () => {
    expect(formatKey('abcde12345fghij67890klmno')).toBe(KEY);
    expect(formatKey(' ab-cd e_1 2345!fghij67890klmno')).toBe(KEY);
    expect(formatKey('abcde1')).toBe('ABCDE-1');
    expect(formatKey('abcde')).toBe('ABCDE');
    expect(formatKey('')).toBe('');
  });
  it('caps the key at 29 characters', () => {
    expect(formatKey(`${KEY}XYZ`)).toBe(KEY);
  });
  it('is idempotent, never longer than 29, and keeps only A-Z, 0-9 and dashes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (raw) => {
        const once = formatKey(raw);
        expect(formatKey(once)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(KEY_LENGTH);
        expect(once).toMatch(/^([A-Z0-9]{1,5}(-[A-Z0-9]{1,5})*)?$/);
      }),
    );
  });
  it('masks as five groups of five asterisks', () => {
    expect(MASKED_KEY).toBe('*****-*****-*****-*****-*****');
  });
});

describe('registrationErrors', () => {
  it('lists every error in the order of the form', () => {
    expect(registrationErrors({ key: 'ABC', status: '', location: '' })).toEqual([m.keyIncomplete, m.statusMissing, m.locationMissing]);
    expect(registrationErrors({ key: KEY, status: 'Active', location: ' ' })).toEqual([m.locationMissing]);
    expect(registrationErrors({ key: KEY, status: 'Unused', location: '' })).toEqual([]);
    expect(registrationErrors({ key: KEY, status: 'Inactive', location: 'Desk' })).toEqual([]);
  });
});

describe('claimChange', () => {
  it('does nothing on blank or cancel, marks Unused on "unused", else claims there', () => {
    expect(claimChange(null)).toBeNull();
    expect(claimChange('  ')).toBeNull();
    expect(claimChange('UNUSED')).toEqual({ status: 'Unused', location: '' });
    expect(claimChange(' Office PC ')).toEqual({ status: 'Active', location: 'Office PC' });
  });
});

describe('the server-side inputs', () => {
  const first = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;
  it('register with the form messages, formatting the key and emptying an Unused location', () => {
    expect(first(addWindowsKeyInput.safeParse({ key: 'abc', status: 'Active', location: 'x' }))).toBe(m.keyIncomplete);
    expect(first(addWindowsKeyInput.safeParse({ key: KEY, status: '', location: 'x' }))).toBe(m.statusMissing);
    expect(first(addWindowsKeyInput.safeParse({ key: KEY, status: 'Active' }))).toBe(m.locationMissing);
    expect(addWindowsKeyInput.parse({ key: KEY.toLowerCase(), status: 'Unused', location: 'x' })).toEqual({ key: KEY, status: 'Unused', location: '' });
  });
  it('update: Unused as a location marks the key Unused', () => {
    expect(updateWindowsKeyInput.parse({ key: KEY, status: 'Active', location: 'unused' })).toEqual({ key: KEY, status: 'Unused', location: '' });
    expect(first(updateWindowsKeyInput.safeParse({ key: KEY, status: 'Active', location: '' }))).toBe(m.locationMissing);
  });
});
