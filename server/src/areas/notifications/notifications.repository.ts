import { sql } from 'kysely';
import { NOTIFICATIONS_PAGE, type NotificationItem, type NotificationKind } from '@site/contracts';
import type { Executor } from '../../db/database.ts';

export async function listInbox(db: Executor, userId: number, cursor: number | undefined): Promise<{ items: NotificationItem[]; nextCursor: number | null }> {
  const rows = await db
    .selectFrom('notification_inbox as i')
    .innerJoin('notification_events as e', 'e.id', 'i.event_id')
    .select(['i.id', 'e.kind', 'e.title', 'e.body', 'e.url', 'i.created_at', 'i.read_at', 'e.done_at'])
    .where('i.user_id', '=', userId)
    .$if(cursor !== undefined, (q) => q.where('i.id', '<', cursor ?? 0))
    .orderBy('i.id', 'desc')
    .limit(NOTIFICATIONS_PAGE + 1)
    .execute();
  const page = rows.slice(0, NOTIFICATIONS_PAGE);
  return {
    items: page.map((r) => ({
      id: r.id,
      kind: r.kind as NotificationKind,
      title: r.title,
      body: r.body,
      url: r.url,
      createdAt: r.created_at.toISOString(),
      read: r.read_at !== null,
      done: r.done_at !== null,
    })),
    nextCursor: rows.length > NOTIFICATIONS_PAGE ? (page.at(-1)?.id ?? null) : null,
  };
}

export async function unreadCount(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notification_inbox')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function markRead(db: Executor, userId: number, ids: number[] | 'all'): Promise<number> {
  const result = await db
    .updateTable('notification_inbox')
    .set({ read_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .$if(ids !== 'all', (q) => q.where('id', 'in', ids === 'all' ? [] : ids))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export type SettingsRow = { muted: NotificationKind[]; quietFrom: string | null; quietTo: string | null; timeZone: string; digestOn: string | null };

export async function readSettings(db: Executor, userIds: readonly number[]): Promise<Map<number, SettingsRow>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('notification_settings').selectAll().where('user_id', 'in', userIds).execute();
  return new Map(
    rows.map((r) => [
      r.user_id,
      { muted: JSON.parse(r.muted) as NotificationKind[], quietFrom: r.quiet_from, quietTo: r.quiet_to, timeZone: r.time_zone, digestOn: r.digest_on },
    ]),
  );
}

/**
 * One member's settings row. `timeZone` (chosen on purpose) replaces the stored zone; without it the
 * stored zone stays, and `firstTimeZone` is written only when the row is new (one statement, so two
 * first saves at once cannot both win).
 */
export async function saveSettings(
  db: Executor,
  userId: number,
  s: { muted: NotificationKind[]; quietFrom: string | null; quietTo: string | null; timeZone: string | null; firstTimeZone: string },
): Promise<void> {
  const values = { muted: JSON.stringify([...new Set(s.muted)]), quiet_from: s.quietFrom, quiet_to: s.quietTo };
  const changed = s.timeZone === null ? values : { ...values, time_zone: s.timeZone };
  await db
    .insertInto('notification_settings')
    .values({ user_id: userId, ...values, time_zone: s.timeZone ?? s.firstTimeZone, digest_on: null })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(changed))
    .execute();
}
