import { allows, NOTIFICATION_KINDS, procedures, slotTitle, type Level } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/database.ts';
import { recordEvent, type NewNotificationEvent } from './notifications.events.ts';
import { localClock } from './notifications.quiet.ts';

/** The planning kinds' local times, in each member's own time zone. */
export const CHORE_DUE_AT = '08:00';
export const DINNER_AT = '15:00';

type PlanKind = 'chore.due' | 'dinner.tonight';

/** What a member is told of `kind` on their local `date`, or null when there is nothing. */
type Maker = (db: Executor, userId: number, date: string) => Promise<NewNotificationEvent | null>;

/**
 * The daily planning notifications due at `now`: for each member who may see what they are about
 * (the kind's row in the permission table), once per local day from `at` in their time zone (their
 * notification settings' zone, the site's for a member who never saved any). The (member, kind) day
 * is claimed in notification_days first, in the transaction that records the event, so a restart or
 * a second instance never makes it twice.
 */
async function makeDaily(deps: AppDeps, now: Date, kind: PlanKind, at: string, make: Maker): Promise<number> {
  const rows = await deps.db
    .selectFrom('users as u')
    .leftJoin('notification_settings as s', 's.user_id', 'u.id')
    .leftJoin('notification_days as d', (join) => join.onRef('d.user_id', '=', 'u.id').on('d.kind', '=', kind))
    .select(['u.id', 'u.level', 's.time_zone', 'd.day'])
    .execute();
  const rule = procedures[NOTIFICATION_KINDS[kind].audience];
  let made = 0;
  for (const row of rows) {
    if (!allows(rule, { name: '', level: row.level as Level })) continue;
    const clock = localClock(now, row.time_zone ?? deps.config.timeZone);
    if (clock.time < at || row.day === clock.date) continue;
    made += await deps.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('notification_days')
        .values({ user_id: row.id, kind, day: clock.date })
        .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ day: clock.date }).where('notification_days.day', '!=', clock.date))
        .returning('user_id')
        .executeTakeFirst();
      if (!claimed) return 0;
      const event = await make(trx, row.id, clock.date);
      if (!event) return 0;
      await recordEvent(trx, event);
      return 1;
    });
  }
  return made;
}

/**
 * `chore.due` at 08:00: the chores due on the member's day that are theirs: whose turn it is (the one
 * member of a one-person chore), every family member for an "anyone" chore. Only on the due day: an
 * overdue chore is not told again.
 */
export function makeChoreReminders(deps: AppDeps, now: Date): Promise<number> {
  return makeDaily(deps, now, 'chore.due', CHORE_DUE_AT, async (db, userId, date) => {
    const chores = await db.selectFrom('chores').select(['id', 'name', 'who', 'turn']).where('next_date', '=', date).orderBy('name').orderBy('id').execute();
    if (chores.length === 0) return null;
    const members = await db
      .selectFrom('chore_members')
      .select(['chore_id', 'user_id'])
      .where('chore_id', 'in', chores.map((c) => c.id))
      .orderBy('position')
      .execute();
    const mine = chores.filter((c) => {
      if (c.who === 'anyone') return true;
      const turns = members.filter((m) => m.chore_id === c.id);
      return turns.length > 0 && turns[c.turn % turns.length]?.user_id === userId;
    });
    if (mine.length === 0) return null;
    return {
      kind: 'chore.due',
      userId,
      subjectId: mine.length === 1 ? (mine[0]?.id ?? null) : null,
      title: mine.length === 1 ? 'A chore is due today' : `${mine.length} chores are due today`,
      body: mine.map((c) => c.name).join(', '),
      url: '/house/chores',
    };
  });
}

/**
 * The day's Dinner meal: the meal named Dinner, or the last meal of the day when the owner renamed
 * it (Supper); the same query serves the send-time check.
 */
export const dinnerMeal = (db: Executor) =>
  db
    .selectFrom('plan_meals')
    .select(['id', 'name'])
    .orderBy((eb) => eb(eb.fn('lower', ['name']), '=', 'dinner'), 'desc')
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();

/** `dinner.tonight` at 15:00: to the cook of the day's Dinner slot, naming the recipe or the text. */
export function makeDinnerReminders(deps: AppDeps, now: Date): Promise<number> {
  return makeDaily(deps, now, 'dinner.tonight', DINNER_AT, async (db, userId, date) => {
    const meal = await dinnerMeal(db);
    if (!meal) return null;
    const slot = await db
      .selectFrom('plan_slots as s')
      .leftJoin('recipes as r', 'r.id', 's.recipe_id')
      .select(['s.id', 'r.title', 's.text'])
      .where('s.date', '=', date)
      .where('s.meal_id', '=', meal.id)
      .where('s.cook_id', '=', userId)
      .executeTakeFirst();
    if (!slot) return null;
    return { kind: 'dinner.tonight', userId, subjectId: slot.id, title: `You cook ${meal.name.toLowerCase()} tonight`, body: slotTitle(slot) || meal.name, url: '/house/plan' };
  });
}
