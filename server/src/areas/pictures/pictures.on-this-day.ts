import { sql } from 'kysely';
import { mediaKind, mediaUrl, ON_THIS_DAY_MAX, pictureLink, type OnThisDay } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { monthPageOf } from './pictures.layout.ts';

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/**
 * The (month, day) pairs that count as today's date: today's, and on 28 February of a year without
 * a 29th also 29 February, so that pictures taken on a leap day come back every year, on the last
 * day of February, rather than once in four years. (On 29 February itself only the 29th counts.)
 */
export function daysOf(now: Date): { year: number; days: [number, number][] } {
  const year = now.getFullYear();
  const month = now.getMonth() + 1;
  const day = now.getDate();
  const days: [number, number][] = [[month, day]];
  if (month === 2 && day === 28 && !isLeapYear(year)) days.push([2, 29]);
  return { year, days };
}

/**
 * `pictures.onThisDay`: approved pictures taken on today's month and day in earlier years, newest
 * year first, at most ON_THIS_DAY_MAX of them, with how many there are. "Today" is the server's
 * calendar date (its local time zone) at `now`. A picture whose capture date lacks its day or month
 * ('2021-05-xx', '2021-xx-xx') or its year is never one of them, nor one taken this year. Found
 * through picture_days (approved pictures per day: a few rows per day of the year), then the
 * capture-order index.
 */
export async function onThisDay(deps: AppDeps, user: SessionUser, now = new Date()): Promise<OnThisDay> {
  const { year, days } = daysOf(now);
  const [month, day] = days[0] ?? [1, 1];
  const today = sql<boolean>`(month, day) in (${sql.join(days.map(([m, d]) => sql`(${m}, ${d})`))})`;
  const matchingDays = deps.db
    .selectFrom('picture_days')
    .where('approved', '>', 0)
    .where('year', '>=', 1800)
    .where('year', '<', year)
    .where(today);
  const [counted, rows] = await Promise.all([
    matchingDays.select((eb) => eb.fn.sum<string | number | null>('approved').as('n')).executeTakeFirst(),
    deps.db
      .selectFrom('pictures')
      .select(['id', 'stem', 'file_type', 'caption', 'year', 'month', 'day', 'thumb_status'])
      .where('status', '=', 'approved')
      .where(sql<boolean>`(year, month, day) in (${matchingDays.select(['year', 'month', 'day'])})`)
      .orderBy('year', 'desc')
      .orderBy('month', 'desc')
      .orderBy('day', 'desc')
      .orderBy('id', 'desc')
      .limit(ON_THIS_DAY_MAX)
      .execute(),
  ]);
  const looker = { id: user.id, admin: user.level >= 3 };
  const pictures = [];
  for (const row of rows) {
    const target = `${row.stem}.${row.file_type}`;
    pictures.push({
      id: row.id,
      caption: row.caption,
      year: row.year,
      yearsAgo: year - row.year,
      kind: mediaKind(row.file_type),
      thumb: row.thumb_status === 'ready' ? mediaUrl(target, 'thumb') : null,
      link: pictureLink(await monthPageOf(deps.db, looker, row), row.id),
    });
  }
  return { month, day, total: Number(counted?.n ?? 0), pictures };
}
