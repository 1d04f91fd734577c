import { MONTH_NAMES, type CaptureDate, type PageType } from '@site/contracts';

/**
 * The gallery's paging rules, pure: from the looker's day groups (newest first, with counts) to
 * the pages of a type. Month pages are the months; year pages the years; a number N cuts the whole
 * list into pages of N.
 */

/** The pictures of one capture day (0 = unknown month or day), in the gallery's order. */
export type DayGroup = CaptureDate & { count: number };
/** One capture month with the number of pictures the looker sees in it. */
export type MonthGroup = { year: number; month: number; count: number };
/** Where a pending picture sits (uploader null: the account is gone; admins see it). */
export type PendingSpot = Fence & { uploader: number | null };

/**
 * Within a day of more than FENCE_STRIDE approved pictures (a box of scans with only a year, a
 * wedding), every FENCE_STRIDE-th approved picture's id, newest first: a page starting deep inside
 * such a day starts its scan at the fence before it and skips fewer than FENCE_STRIDE pictures
 * (plus the looker's own pending ones in between) instead of the whole day before it.
 */
export const FENCE_STRIDE = 128;
export type Fence = CaptureDate & { id: number };

/** The counts paging needs, read in one snapshot, and the token the database had then. */
export type GalleryCounts = { token: string | null; approved: DayGroup[]; pending: PendingSpot[]; fences: Fence[] };

/**
 * One looker's gallery: its days and months newest first, the position each day starts at, and per
 * day (by dayKey) the fences and the ids of the looker's pending pictures, newest first.
 */
export type Layout = { days: DayGroup[]; starts: number[]; months: MonthGroup[]; fences: Map<number, number[]>; pending: Map<number, number[]> };

/**
 * Where a position of the looker's list is: its day, the picture of that day the scan starts at
 * (`fromId`, inclusive; null: the day's newest) and how many pictures from there come first.
 */
export type Position = CaptureDate & { fromId: number | null; offset: number };

export type PageSlice =
  | { year: number; month: number | null; start: number; length: number; label: string }
  | { start: number; length: number; label: string; from: { year: number; month: number }; offset: number };

export type Paging = { pageCount: number; total: number; page: PageSlice | null };

// Newest first is descending (year, month, day): 0 (unknown) sorts after the known months and days.
const dayKey = (g: CaptureDate) => (g.year * 13 + g.month) * 32 + g.day;

/** Ids per day, newest first. */
function idsByDay(items: readonly Fence[]): Map<number, number[]> {
  const byDay = new Map<number, number[]>();
  for (const item of items) {
    const key = dayKey(item);
    const ids = byDay.get(key);
    if (ids) ids.push(item.id);
    else byDay.set(key, [item.id]);
  }
  for (const ids of byDay.values()) ids.sort((a, b) => b - a);
  return byDay;
}

/** The fences of every day, for the layouts of all lookers. */
export const fencesByDay = (fences: readonly Fence[]): Map<number, number[]> => idsByDay(fences);

/** The approved days with the pending pictures this looker sees added in, newest first. */
export function layoutOf(approved: readonly DayGroup[], pending: readonly PendingSpot[], fences: Map<number, number[]> = new Map()): Layout {
  const byKey = new Map<number, DayGroup>();
  for (const g of [...approved, ...pending.map((p) => ({ ...p, count: 1 }))]) {
    const key = dayKey(g);
    const known = byKey.get(key);
    if (known) known.count += g.count;
    else byKey.set(key, { year: g.year, month: g.month, day: g.day, count: g.count });
  }
  const days = [...byKey.entries()].sort((a, b) => b[0] - a[0]).map(([, g]) => g);
  const starts: number[] = [];
  const months: MonthGroup[] = [];
  let position = 0;
  for (const g of days) {
    starts.push(position);
    position += g.count;
    const last = months[months.length - 1];
    if (last && last.year === g.year && last.month === g.month) last.count += g.count;
    else months.push({ year: g.year, month: g.month, count: g.count });
  }
  return { days, starts, months, fences, pending: idsByDay(pending) };
}

/** The largest whole number k in [0, max] with fits(k), for fits true at 0 and monotone. */
function lastFitting(max: number, fits: (k: number) => boolean): number {
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The day holding position `position` (0 = the newest picture) of a layout, or null past the end. */
export function locate(layout: Layout, position: number): Position | null {
  const { days, starts } = layout;
  if (days.length === 0 || position < 0) return null;
  // The last day starting at or before the position.
  const index = lastFitting(days.length - 1, (i) => (starts[i] ?? 0) <= position);
  const day = days[index];
  const offset = position - (starts[index] ?? 0);
  if (!day || offset >= day.count) return null;
  const key = dayKey(day);
  const fences = layout.fences.get(key) ?? [];
  const mine = layout.pending.get(key) ?? [];
  // Fence k (1-based) is approved picture k * FENCE_STRIDE of the day: before it come that many
  // approved pictures and the looker's pending ones with larger ids.
  const before = (k: number) => (k === 0 ? 0 : k * FENCE_STRIDE + mine.filter((id) => id > (fences[k - 1] ?? 0)).length);
  const k = lastFitting(fences.length, (f) => before(f) <= offset);
  return { year: day.year, month: day.month, day: day.day, fromId: k === 0 ? null : (fences[k - 1] ?? null), offset: offset - before(k) };
}

export function monthLabel(year: number, month: number): string {
  if (year === 0) return 'Unknown Date';
  return `${month === 0 ? 'Unknown Month' : MONTH_NAMES[month - 1]} ${year}`;
}

export function yearLabel(year: number): string {
  return year === 0 ? 'Unknown Date' : String(year);
}

export function yearGroups(groups: readonly MonthGroup[]): { year: number; count: number }[] {
  const years: { year: number; count: number }[] = [];
  for (const g of groups) {
    const last = years[years.length - 1];
    if (last && last.year === g.year) last.count += g.count;
    else years.push({ year: g.year, count: g.count });
  }
  return years;
}

const countBefore = (groups: readonly { count: number }[], index: number) => {
  let before = 0;
  for (let i = 0; i < index; i++) before += groups[i]?.count ?? 0;
  return before;
};

export function paginate(groups: readonly MonthGroup[], type: PageType, index: number): Paging {
  const total = groups.reduce((sum, g) => sum + g.count, 0);
  if (type === 'month') {
    const g = groups[index];
    return {
      pageCount: groups.length,
      total,
      page: g
        ? { year: g.year, month: g.month, start: countBefore(groups, index), length: g.count, label: monthLabel(g.year, g.month) }
        : null,
    };
  }
  if (type === 'year') {
    const years = yearGroups(groups);
    const y = years[index];
    return {
      pageCount: years.length,
      total,
      page: y ? { year: y.year, month: null, start: countBefore(years, index), length: y.count, label: yearLabel(y.year) } : null,
    };
  }
  const size = type;
  const pageCount = Math.ceil(total / size);
  const start = index * size;
  if (start >= total) return { pageCount, total, page: null };
  const length = Math.min(size, total - start);
  // The month the page starts in, and the offset of its first picture within it.
  let before = 0;
  let from = { year: 0, month: 0 };
  for (const g of groups) {
    if (before + g.count > start) {
      from = { year: g.year, month: g.month };
      break;
    }
    before += g.count;
  }
  const label = pageCount <= 1 ? 'All Pictures' : `Pictures ${start + 1} - ${start + length}`;
  return { pageCount, total, page: { start, length, label, from, offset: start - before } };
}

/** What one read needs: the paging, and which pictures to fetch (none for the counts alone). */
export type PageRead = { paging: Paging; fetch: (Position & { limit: number }) | null };

/** The page of `type`/`index` and, when `want` is given, where its pictures `offset`.. start. */
export function planRead(layout: Layout, type: PageType, index: number, want: { offset: number; limit: number } | null): PageRead {
  const paging = paginate(layout.months, type, index);
  const page = paging.page;
  if (!want || !page || want.offset >= page.length) return { paging, fetch: null };
  const at = locate(layout, page.start + want.offset);
  return { paging, fetch: at && { ...at, limit: Math.min(want.limit, page.length - want.offset) } };
}
