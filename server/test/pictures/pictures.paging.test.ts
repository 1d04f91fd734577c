import { describe, expect, it } from 'vitest';
import { parseCaptureDate, formatCaptureDate, pageInput } from '@site/contracts';
import { fencesByDay, layoutOf, locate, paginate, planRead } from '../../src/areas/pictures/pictures.paging.ts';

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

  it('adds a looker\'s pending pictures to the approved days and finds the day of any position', () => {
    const approved = [
      { year: 2024, month: 7, day: 0, count: 2 },
      { year: 2024, month: 7, day: 15, count: 3 },
      { year: 0, month: 0, day: 0, count: 1 },
      { year: 2024, month: 0, day: 0, count: 1 },
    ];
    const layout = layoutOf(approved, [
      { uploader: 5, year: 2024, month: 7, day: 15, id: 40 },
      { uploader: 5, year: 2024, month: 7, day: 3, id: 41 },
      { uploader: 5, year: 2024, month: 7, day: 3, id: 42 },
    ]);
    expect(layout.days.map((d) => `${d.year}-${d.month}-${d.day}:${d.count}`)).toEqual(['2024-7-15:4', '2024-7-3:2', '2024-7-0:2', '2024-0-0:1', '0-0-0:1']);
    expect(layout.starts).toEqual([0, 4, 6, 8, 9]);
    expect(layout.months).toEqual([
      { year: 2024, month: 7, count: 8 },
      { year: 2024, month: 0, count: 1 },
      { year: 0, month: 0, count: 1 },
    ]);
    expect([0, 3, 4, 7, 8, 9].map((p) => locate(layout, p))).toEqual([
      { year: 2024, month: 7, day: 15, fromId: null, offset: 0 },
      { year: 2024, month: 7, day: 15, fromId: null, offset: 3 },
      { year: 2024, month: 7, day: 3, fromId: null, offset: 0 },
      { year: 2024, month: 7, day: 0, fromId: null, offset: 1 },
      { year: 2024, month: 0, day: 0, fromId: null, offset: 0 },
      { year: 0, month: 0, day: 0, fromId: null, offset: 0 },
    ]);
    expect(locate(layout, 10)).toBeNull();
    expect(locate(layoutOf([], []), 0)).toBeNull();
    // Page 2 of pages of 3 starts at position 3, the fourth picture of 15 July; year 2024 holds 9.
    expect(planRead(layout, 3, 1, { offset: 0, limit: 10 }).fetch).toEqual({ year: 2024, month: 7, day: 15, fromId: null, offset: 3, limit: 3 });
    expect(planRead(layout, 'year', 0, { offset: 7, limit: 1 }).fetch).toEqual({ year: 2024, month: 7, day: 0, fromId: null, offset: 1, limit: 1 });
    expect(planRead(layout, 'month', 1, { offset: 1, limit: 1 }).fetch).toBeNull();
    expect(planRead(layout, 'month', 0, null)).toMatchObject({ paging: { pageCount: 3, total: 10, page: { length: 8 } }, fetch: null });
  });

  it('starts a scan deep inside a crowded day at the fence before it, counting the looker\'s pending pictures', () => {
    // 1990 with no month: 400 approved pictures; fences at approved pictures 128, 256 and 384 (ids 872, 744, 616).
    const day = { year: 1990, month: 0, day: 0 };
    const fences = fencesByDay([872, 744, 616].map((id) => ({ ...day, id })));
    const mine = [2000, 800, 700].map((id) => ({ uploader: 5, ...day, id }));
    const layout = layoutOf([{ ...day, count: 400 }], mine, fences);
    expect(layout.days).toEqual([{ ...day, count: 403 }]);
    const at = (position: number) => {
      const found = locate(layout, position);
      return found && [found.fromId, found.offset];
    };
    // Pending 2000 is newer than every fence; 800 lies between the first and second, 700 between the second and third.
    expect([0, 128, 129, 130, 257, 258, 259, 386, 387, 402].map(at)).toEqual([
      [null, 0],
      [null, 128],
      [872, 0],
      [872, 1],
      [872, 128],
      [744, 0],
      [744, 1],
      [744, 128],
      [616, 0],
      [616, 15],
    ]);
    expect(at(403)).toBeNull();
    // Another looker sees the approved pictures alone.
    const others = layoutOf([{ ...day, count: 400 }], [], fences);
    expect([127, 128, 383, 384, 399].map((p) => locate(others, p)).map((f) => f && [f.fromId, f.offset])).toEqual([
      [null, 127],
      [872, 0],
      [744, 127],
      [616, 0],
      [616, 15],
    ]);
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
