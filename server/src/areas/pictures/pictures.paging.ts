import { MONTH_NAMES, type PageType } from '@site/contracts';
import type { MonthGroup } from './pictures.repository.ts';

/**
 * The gallery's paging rules, pure: from the looker's month groups (newest first, with counts) to
 * the pages of a type. Month pages are the months; year pages the years; a number N cuts the whole
 * list into pages of N.
 */
export type PageSlice =
  | { kind: 'group'; year: number; month: number | null; length: number; label: string }
  | { kind: 'range'; start: number; length: number; label: string; from: { year: number; month: number }; offset: number };

export type Paging = { pageCount: number; total: number; page: PageSlice | null };

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

export function paginate(groups: readonly MonthGroup[], type: PageType, index: number): Paging {
  const total = groups.reduce((sum, g) => sum + g.count, 0);
  if (type === 'month') {
    const g = groups[index];
    return {
      pageCount: groups.length,
      total,
      page: g ? { kind: 'group', year: g.year, month: g.month, length: g.count, label: monthLabel(g.year, g.month) } : null,
    };
  }
  if (type === 'year') {
    const years = yearGroups(groups);
    const y = years[index];
    return {
      pageCount: years.length,
      total,
      page: y ? { kind: 'group', year: y.year, month: null, length: y.count, label: yearLabel(y.year) } : null,
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
  return { pageCount, total, page: { kind: 'range', start, length, label, from, offset: start - before } };
}
