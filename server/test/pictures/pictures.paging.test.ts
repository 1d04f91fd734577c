import { describe, expect, it } from 'vitest';
import { parseCaptureDate, formatCaptureDate, pageInput } from '@site/contracts';
import { paginate } from '../../src/areas/pictures/pictures.paging.ts';

const groups = [
  { year: 2024, month: 7, count: 3 },
  { year: 2024, month: 2, count: 1 },
  { year: 2024, month: 0, count: 2 },
  { year: 2023, month: 12, count: 4 },
  { year: 0, month: 0, count: 1 },
];

describe('paging rules', () => {
  it('month pages are the capture months, newest first, the unknown month after its year', () => {
    const labels = groups.map((_, i) => paginate(groups, 'month', i).page?.label);
    expect(labels).toEqual(['July 2024', 'February 2024', 'Unknown Month 2024', 'December 2023', 'Unknown Date']);
    expect(paginate(groups, 'month', 2)).toMatchObject({ pageCount: 5, page: { length: 2, year: 2024, month: 0 } });
    expect(paginate(groups, 'month', 5).page).toBeNull();
  });

  it('year pages sum the months of each year', () => {
    expect(paginate(groups, 'year', 0)).toMatchObject({ pageCount: 3, page: { label: '2024', length: 6, month: null } });
    expect(paginate(groups, 'year', 1).page).toMatchObject({ label: '2023', length: 4 });
    expect(paginate(groups, 'year', 2).page).toMatchObject({ label: 'Unknown Date', length: 1 });
  });

  it('number pages cut the whole list, starting inside the right month', () => {
    expect(paginate(groups, 4, 0)).toMatchObject({ pageCount: 3, page: { label: 'Pictures 1 - 4', length: 4, from: { year: 2024, month: 7 }, offset: 0 } });
    expect(paginate(groups, 4, 1).page).toMatchObject({ label: 'Pictures 5 - 8', length: 4, from: { year: 2024, month: 0 }, offset: 0 });
    expect(paginate(groups, 4, 2).page).toMatchObject({ label: 'Pictures 9 - 11', length: 3, from: { year: 2023, month: 12 }, offset: 2 });
    expect(paginate(groups, 11, 0).page?.label).toBe('All Pictures');
    expect(paginate(groups, 50, 0)).toMatchObject({ pageCount: 1, page: { label: 'All Pictures', length: 11 } });
    expect(paginate([], 24, 0)).toEqual({ pageCount: 0, total: 0, page: null });
  });

  it('reads page types and indexes as the old client sends them', () => {
    expect(pageInput.parse({ type: 'Month', index: 0 })).toEqual({ type: 'month', index: 0 });
    expect(pageInput.parse({ type: '24', index: 3 })).toEqual({ type: 24, index: 3 });
    expect(pageInput.safeParse({ type: '0', index: 0 }).success).toBe(false);
    expect(pageInput.safeParse({ type: 'week', index: 0 }).success).toBe(false);
    expect(pageInput.safeParse({ type: 'month', index: -1 }).success).toBe(false);
  });

  it('reads capture dates with xx or blanks for an unknown month or day', () => {
    expect(parseCaptureDate('2024-07-15')).toEqual({ year: 2024, month: 7, day: 15 });
    expect(parseCaptureDate('2024-07-xx')).toEqual({ year: 2024, month: 7, day: 0 });
    expect(parseCaptureDate('2024-xx-xx')).toEqual({ year: 2024, month: 0, day: 0 });
    expect(parseCaptureDate('2024--')).toEqual({ year: 2024, month: 0, day: 0 });
    expect(parseCaptureDate('2024')).toEqual({ year: 2024, month: 0, day: 0 });
    expect(parseCaptureDate('')).toBeNull();
    for (const bad of ['2023-02-29', '2024-13-01', '2024-xx-05', '24-01-01', 'yesterday', '2024-00-01', '2024-01-00']) {
      expect(parseCaptureDate(bad), bad).toBeUndefined();
    }
    expect(formatCaptureDate({ year: 2024, month: 0, day: 0 })).toBe('2024-xx-xx');
    expect(formatCaptureDate({ year: 2024, month: 3, day: 9 })).toBe('2024-03-09');
  });
});
