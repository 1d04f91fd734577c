import { describe, expect, it } from 'vitest';
import { captionFromName, dateField, partsOfDate } from './upload.ts';

describe('upload autofill', () => {
  it('takes the caption from the file name', () => {
    expect(captionFromName('IMG_0042.JPG')).toBe('IMG_0042');
    expect(captionFromName('beach day.final.png')).toBe('beach day.final');
  });
  it('writes unknown month and day as xx, and nothing at all as blank', () => {
    expect(dateField({ year: '2024', month: '7', day: '' })).toBe('2024-07-xx');
    expect(dateField({ year: '2024', month: '', day: '' })).toBe('2024-xx-xx');
    expect(dateField({ year: '', month: '3', day: '1' })).toBe('');
    expect(partsOfDate(new Date(2023, 0, 5))).toEqual({ year: '2023', month: '01', day: '05' });
  });
});
