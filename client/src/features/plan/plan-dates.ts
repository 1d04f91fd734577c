import { WEEKDAY_NAMES, weekdayOf, type PlanDate } from '@site/contracts/plan';

/** The browser's today, 'YYYY-MM-DD' (the page's first week before the server says what day it is for the family). */
export function localToday(now = new Date()): PlanDate {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

const monthFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** 'Mon 30 Nov': a day as the pages name it. */
export function dayLabel(date: PlanDate): string {
  return `${WEEKDAY_NAMES[weekdayOf(date) - 1]!.slice(0, 3)} ${monthFormat.format(new Date(`${date}T00:00:00Z`))}`;
}

/** 'Monday 30 November': a day in full, for a heading. */
export function longDayLabel(date: PlanDate): string {
  return `${WEEKDAY_NAMES[weekdayOf(date) - 1]} ${new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`))}`;
}
