import { sql } from 'kysely';
import { allows, NOTIFICATION_KINDS, procedures, type Level } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/database.ts';
import { list as listGameServers } from '../game-servers/game-servers.port.ts';
import { daysOf } from '../pictures/pictures.port.ts';
import { recordEvent } from './notifications.events.ts';
import { makeChoreReminders, makeDinnerReminders } from './notifications.plan.ts';
import { localClock } from './notifications.quiet.ts';

const EVERY_MS = 60_000;
/** The morning digest's time, in each member's own time zone. */
export const DIGEST_AT = '08:00';

/**
 * What the worker does once a minute: checks the game servers someone follows (a check is what
 * notices a server going down while nobody has the page open), and makes the On this day digests
 * and the planning reminders (chore.due, dinner.tonight; notifications.plan.ts) that are due.
 */
export function periodicChecks(deps: AppDeps) {
  let last = 0;
  return {
    async runIfDue(now = Date.now()): Promise<void> {
      if (now - last < EVERY_MS) return;
      last = now;
      const followed = await deps.db.selectFrom('notification_follows').select('server_id').limit(1).executeTakeFirst();
      if (followed) await listGameServers(deps);
      await makeDigests(deps, new Date(now));
      await makeChoreReminders(deps, new Date(now));
      await makeDinnerReminders(deps, new Date(now));
    },
  };
}

/**
 * The `onthisday` digests due at `now`: for each member who told us their time zone (the Account
 * page's settings) and may see the pictures, once per local day from 08:00 there, when earlier years
 * have approved pictures taken on that day. The day is claimed in the settings row first, so two
 * instances never both make one.
 */
export async function makeDigests(deps: AppDeps, now: Date): Promise<number> {
  const rows = await deps.db
    .selectFrom('notification_settings as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.user_id', 's.time_zone', 's.digest_on', 'u.level'])
    .execute();
  const rule = procedures[NOTIFICATION_KINDS.onthisday.audience];
  let made = 0;
  for (const row of rows) {
    if (!allows(rule, { name: '', level: row.level as Level })) continue;
    const clock = localClock(now, row.time_zone);
    if (clock.time < DIGEST_AT || row.digest_on === clock.date) continue;
    made += await deps.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('notification_settings')
        .set({ digest_on: clock.date })
        .where('user_id', '=', row.user_id)
        .where((eb) => eb.or([eb('digest_on', 'is', null), eb('digest_on', '!=', clock.date)]))
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return 0;
      const count = await picturesOnDay(trx, clock.date);
      if (count === 0) return 0;
      await recordEvent(trx, {
        kind: 'onthisday',
        userId: row.user_id,
        title: 'On this day',
        body: count === 1 ? '1 picture from this day in earlier years' : `${count} pictures from this day in earlier years`,
        url: '/personal/pictures',
      });
      return 1;
    });
  }
  return made;
}

/** Approved pictures taken on the local date's month and day in earlier years (the gallery's own rule, daysOf). */
async function picturesOnDay(db: Executor, date: string): Promise<number> {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const { year, days } = daysOf(new Date(y, m - 1, d));
  const row = await db
    .selectFrom('picture_days')
    .select((eb) => eb.fn.sum<string | number | null>('approved').as('n'))
    .where('approved', '>', 0)
    .where('year', '>=', 1800)
    .where('year', '<', year)
    .where(sql<boolean>`(month, day) in (${sql.join(days.map(([mm, dd]) => sql`(${mm}, ${dd})`))})`)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
