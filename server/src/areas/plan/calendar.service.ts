import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { ICalEventData } from 'ical-generator';
import { addDays, allows, calendarMessages, procedures, type Level, MEAL_MINUTES, nextAfterDone, todayIn, type CalendarFeed, type PlanDate } from '@site/contracts';
import { wallClock } from '@site/contracts/time-zone';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { hashToken } from '../../identity/token-hash.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { siteUrl } from '../../http/site-url.ts';
import { list as listChores } from './chores.service.ts';
import { calendarRenderer } from './calendar.text.ts';
import * as repo from './plan.repository.ts';

/** 'cal_' and 43 base64url characters (256 bits). */
const TOKEN_SHAPE = /^cal_[A-Za-z0-9_-]{43}$/;
export const CALENDAR_PATH = '/calendar';
/** How far the feed reaches: the meal plan from this many days back, planned meals and chores this far ahead. */
export const FEED_PAST_DAYS = 60;
export const FEED_AHEAD_DAYS = 366;
export const PRODID = { company: 'Family website', product: 'Week planner', language: 'EN' } as const;

const feedUrl = (deps: AppDeps, origin: string | null, token: string) => `${(deps.config.publicUrl ?? origin ?? siteUrl(deps.config)).replace(/\/+$/, '')}${CALENDAR_PATH}/${token}.ics`;

/** The member's feed: made when, whether it holds everyone's chores; its address only when just made. */
export async function feed(deps: AppDeps, user: SessionUser): Promise<CalendarFeed> {
  const row = await deps.db.selectFrom('calendar_feeds').select(['created_at', 'everyone']).where('user_id', '=', user.id).executeTakeFirst();
  return { url: null, createdAt: row?.created_at.toISOString() ?? null, everyone: row?.everyone ?? false };
}

/** A new address (the first, or in place of the old one, which answers 404 from now on). */
export async function reset(deps: AppDeps, user: SessionUser, origin: string | null): Promise<CalendarFeed> {
  const token = `cal_${randomBytes(32).toString('base64url')}`;
  const row = await deps.db
    .insertInto('calendar_feeds')
    .values({ user_id: user.id, token_hash: hashToken(token), everyone: false })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ token_hash: hashToken(token), created_at: new Date(), etag: null, fingerprint: null }))
    .returning(['created_at', 'everyone'])
    .executeTakeFirstOrThrow();
  return { url: feedUrl(deps, origin, token), createdAt: row.created_at.toISOString(), everyone: row.everyone };
}

/** Whether the feed holds everyone's chores or only the member's own. */
export async function saveSettings(deps: AppDeps, user: SessionUser, everyone: boolean): Promise<CalendarFeed> {
  const row = await deps.db.updateTable('calendar_feeds').set({ everyone }).where('user_id', '=', user.id).returning(['created_at', 'everyone']).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', calendarMessages.notFound);
  return { url: null, createdAt: row.created_at.toISOString(), everyone: row.everyone };
}

/** The offset of `timeZone` from UTC at `utcMs`, in ms. */
function offsetAt(timeZone: string, utcMs: number): number {
  const c = wallClock(timeZone, new Date(utcMs));
  return Date.UTC(+c.year, +c.month - 1, +c.day, +c.hour, +c.minute, +c.second) - Math.floor(utcMs / 1000) * 1000;
}

/** The instant a wall-clock time of a day is in `timeZone` (the later one in an autumn's repeated hour). */
export function zonedInstant(date: PlanDate, time: string, timeZone: string): Date {
  const wall = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)), Number(time.slice(0, 2)), Number(time.slice(3, 5)));
  let utc = wall - offsetAt(timeZone, wall);
  utc = wall - offsetAt(timeZone, utc);
  return new Date(utc);
}

const dayOf = (date: PlanDate) => new Date(`${date}T00:00:00Z`);

const renderFeed = calendarRenderer({ name: 'Family week', prodId: PRODID, ttl: 3600 });

/** The events of a member's feed: the meal plan and the chores (everyone's, or the member's own). */
export async function feedEvents(deps: AppDeps, userId: number, everyone: boolean, host: string): Promise<ICalEventData[]> {
  const zone = deps.config.timeZone;
  const today = todayIn(zone);
  const events: ICalEventData[] = [];
  const user = await deps.db.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirstOrThrow();
  for (const slot of await repo.slotsBetween(deps.db, addDays(today, -FEED_PAST_DAYS), addDays(today, FEED_AHEAD_DAYS))) {
    const start = zonedInstant(slot.date, slot.time, zone);
    const what = slot.recipe_id !== null ? (slot.title ?? '') : (slot.text ?? '');
    events.push({
      id: `meal-${slot.id}@${host}`,
      start,
      end: new Date(start.getTime() + MEAL_MINUTES * 60_000),
      stamp: slot.updated_at,
      summary: `${slot.meal}: ${what}`,
      description: [slot.cook ? `${slot.cook} cooks` : null, slot.servings ? `${slot.servings} servings` : null].filter((l) => l !== null).join('\n') || null,
    });
  }
  const chores = await listChores(deps);
  const rows = await deps.db.selectFrom('chores').select(['id', 'updated_at']).execute();
  const until = addDays(today, FEED_AHEAD_DAYS);
  for (const chore of chores) {
    const stamp = rows.find((r) => r.id === chore.id)?.updated_at ?? new Date(0);
    const turns = 'turns' in chore.who ? chore.who.turns : null;
    let turn = turns && chore.assignee ? turns.indexOf(chore.assignee) : 0;
    // Its coming dates as done on each, the turn passing along.
    for (let date = chore.next, i = 0; date <= until && i < FEED_AHEAD_DAYS; date = nextAfterDone(chore.every, date, date), i++) {
      const assignee = turns ? (turns[turn % turns.length] ?? null) : chore.assignee;
      turn++;
      if (!everyone && assignee !== null && assignee !== user.name) continue;
      events.push({
        id: `chore-${chore.id}-${date.replaceAll('-', '')}@${host}`,
        start: dayOf(date),
        end: dayOf(addDays(date, 1)),
        allDay: true,
        stamp,
        summary: assignee && everyone ? `${chore.name} (${assignee})` : chore.name,
        description: `${chore.points} point${chore.points === 1 ? '' : 's'}${assignee ? `, ${assignee}'s turn` : ', anyone'}`,
      });
    }
  }
  return events;
}

export type ServedFeed = { body: string | null; etag: string; lastModified: Date };

/**
 * Feeds made, per member, with the fingerprint they were made from, kept by each app (its database):
 * a feed is made again only once something in it changed (and then only its changed events are
 * rendered again: calendar.text.ts). Being checked against the fingerprint read from
 * the database on every request, a copy held by one instance is never out of date for another's changes.
 */
const MADE_FEEDS_KEPT = 64;
const madeFeedsByDb = new WeakMap<object, Map<number, { fingerprint: string; body: string }>>();
function madeFeeds(deps: AppDeps): Map<number, { fingerprint: string; body: string }> {
  let feeds = madeFeedsByDb.get(deps.db);
  if (!feeds) madeFeedsByDb.set(deps.db, (feeds = new Map()));
  return feeds;
}

/**
 * A hash of everything the feed is made from, read in one query: the meal slots in its range (id, last
 * change, recipe title, cook), the meals, the chores (id, last change: an edit, Done, Undo), their
 * members' names, and the day, the member and the settings. A poll that finds it unchanged is answered
 * from the stored ETag without making the feed.
 */
async function fingerprint(deps: AppDeps, userId: number, everyone: boolean, host: string, today: PlanDate): Promise<string> {
  const from = addDays(today, -FEED_PAST_DAYS);
  const to = addDays(today, FEED_AHEAD_DAYS);
  const row = await sql<{ data: string }>`select concat_ws('|',
      (select string_agg(concat_ws(':', s.id, s.updated_at, r.title, u.name), ',' order by s.id)
        from plan_slots s left join recipes r on r.id = s.recipe_id left join users u on u.id = s.cook_id
        where s.date between ${from} and ${to}),
      (select string_agg(concat_ws(':', m.id, m.name, m.time), ',' order by m.id) from plan_meals m),
      (select string_agg(concat_ws(':', c.id, c.updated_at), ',' order by c.id) from chores c),
      (select string_agg(concat_ws(':', cm.chore_id, cm.position, u.name), ',' order by cm.chore_id, cm.position)
        from chore_members cm join users u on u.id = cm.user_id),
      (select name from users where id = ${userId})) as data`.execute(deps.db);
  return createHash('sha256').update(`${row.rows[0]?.data ?? ''}|${today}|${everyone}|${host}`).digest('base64url');
}

/**
 * The feed of a token, or 404: also while its maker may not have a feed now (their level, read with the
 * token on every request: lowered below Family it answers 404, raised again it works again). Its ETag is the body's hash and its Last-Modified when that hash last
 * changed. `fresh(etag, lastModified)` says whether the asker already holds it: then, when nothing the
 * feed is made from changed, the answer has no body and the feed is not made at all.
 */
export async function serveFeed(deps: AppDeps, token: string, host: string, fresh: (etag: string, lastModified: Date) => boolean): Promise<ServedFeed> {
  if (!TOKEN_SHAPE.test(token)) throw new AppError('NOT_FOUND', calendarMessages.notFound);
  const row = await deps.db
    .selectFrom('calendar_feeds')
    .innerJoin('users', 'users.id', 'calendar_feeds.user_id')
    .select(['calendar_feeds.user_id', 'calendar_feeds.everyone', 'calendar_feeds.etag', 'calendar_feeds.changed_at', 'calendar_feeds.fingerprint', 'users.level'])
    .where('calendar_feeds.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || !allows(procedures['calendar.feed'], { name: '', level: row.level as Level })) throw new AppError('NOT_FOUND', calendarMessages.notFound);
  const print = await fingerprint(deps, row.user_id, row.everyone, host, todayIn(deps.config.timeZone));
  if (row.etag !== null && row.fingerprint === print && fresh(row.etag, row.changed_at)) return { body: null, etag: row.etag, lastModified: row.changed_at };
  const cache = madeFeeds(deps);
  const kept = cache.get(row.user_id);
  const body = kept?.fingerprint === print ? kept.body : renderFeed(await feedEvents(deps, row.user_id, row.everyone, host));
  cache.delete(row.user_id);
  cache.set(row.user_id, { fingerprint: print, body });
  if (cache.size > MADE_FEEDS_KEPT) cache.delete(cache.keys().next().value!);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  let lastModified = row.changed_at;
  if (row.etag !== etag || row.fingerprint !== print) {
    if (row.etag !== etag) lastModified = new Date(Math.floor(Date.now() / 1000) * 1000);
    await deps.db.updateTable('calendar_feeds').set({ etag, changed_at: lastModified, fingerprint: print }).where('user_id', '=', row.user_id).execute();
  }
  return { body, etag, lastModified };
}
