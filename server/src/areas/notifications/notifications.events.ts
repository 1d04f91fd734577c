import { sql } from 'kysely';
import type { GameServerStatus, NotificationKind } from '@site/contracts';
import type { Executor } from '../../db/database.ts';

/**
 * What a service records when it commits a change members may be told about. Called with the
 * service's own transaction, so the event exists exactly when the change does; the delivery worker
 * (notifications.worker.ts) wakes at the commit (the table's trigger) and decides who receives it.
 */
export type NewNotificationEvent = {
  kind: NotificationKind;
  /** Who made the change (never told of it); null for the site itself. */
  actorId?: number | null;
  /** The one member it is for (kinds told to one member). */
  userId?: number | null;
  /** What it is about (a picture, a game server, an account): checked again when it is sent. */
  subjectId?: number | null;
  title: string;
  body: string;
  /** The page it concerns, a path of this site. */
  url: string;
};

/** Text cut to a notification's size: push services take about 4 KB for the whole message. */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}\u2026` : text);

export async function recordEvent(db: Executor, event: NewNotificationEvent): Promise<void> {
  if (event.kind === 'picture.waiting' && (await joinWaitingPictures(db, event))) return;
  await db
    .insertInto('notification_events')
    .values({
      kind: event.kind,
      actor_id: event.actorId ?? null,
      user_id: event.userId ?? null,
      subject_id: event.subjectId ?? null,
      title: cut(event.title, 120),
      body: cut(event.body, 400),
      url: event.url,
      fanned_out_at: null,
    })
    .execute();
}

/** A heart taken back and given again within this many minutes is not told again. */
export const HEART_AGAIN_QUIET_MINUTES = 10;

/**
 * One member tells another of hearts and comments at most once in this many minutes: what comes
 * meanwhile is summed into that notification ("Ben hearted and commented 12 times on your pictures"),
 * which is new again in the inbox but not pushed again.
 */
export const SOCIAL_SUM_MINUTES = 30;

type SocialCounts = { heart: number; comment: number };

/** The summed notification's title. */
export function socialSummaryTitle(actorName: string, counts: SocialCounts): string {
  const times = counts.heart + counts.comment;
  if (counts.comment === 0) return `${actorName} gave your pictures ${times} hearts`;
  if (counts.heart === 0) return `${actorName} commented ${times} times on your pictures`;
  return `${actorName} hearted and commented ${times} times on your pictures`;
}

/**
 * `picture.social`: a heart or a comment, for the picture's uploader (not for their own). A heart
 * the same member gave the same picture in the last HEART_AGAIN_QUIET_MINUTES (taken back and given
 * again) is not told again. Within SOCIAL_SUM_MINUTES of the notification the actor's first one made
 * for the uploader, the new one is recorded joined to it (`joined_to`: never fanned out or pushed on
 * its own) and the first one's title says how many there are now.
 */
export async function recordPictureSocial(db: Executor, pictureId: number, actor: { id: number; name: string }, what: 'heart' | 'comment', title: string, body: string): Promise<void> {
  const picture = await db.selectFrom('pictures').select('uploaded_by').where('id', '=', pictureId).executeTakeFirst();
  if (!picture?.uploaded_by || picture.uploaded_by === actor.id) return;
  const recent = (minutes: number) => sql<boolean>`created_at > now() - make_interval(mins => ${minutes})`;
  const social = db.selectFrom('notification_events').where('kind', '=', 'picture.social').where('actor_id', '=', actor.id);
  if (what === 'heart') {
    const told = await social.select('id').where('subject_id', '=', pictureId).where('part', '=', 'heart').where(recent(HEART_AGAIN_QUIET_MINUTES)).limit(1).executeTakeFirst();
    if (told) return;
  }
  const open = await social
    .select('id')
    .where('user_id', '=', picture.uploaded_by)
    .where('joined_to', 'is', null)
    .where(recent(SOCIAL_SUM_MINUTES))
    .orderBy('id', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
  await db
    .insertInto('notification_events')
    .values({
      kind: 'picture.social',
      actor_id: actor.id,
      user_id: picture.uploaded_by,
      subject_id: pictureId,
      title: cut(title, 120),
      body: cut(body, 400),
      url: '/personal/pictures',
      part: what,
      joined_to: open?.id ?? null,
      fanned_out_at: open ? sql<Date>`now()` : null,
    })
    .execute();
  if (!open) return;
  const parts = await db
    .selectFrom('notification_events')
    .select(['part', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where((eb) => eb.or([eb('id', '=', open.id), eb('joined_to', '=', open.id)]))
    .groupBy('part')
    .execute();
  const counts: SocialCounts = { heart: 0, comment: 0 };
  for (const row of parts) if (row.part === 'heart' || row.part === 'comment') counts[row.part] = Number(row.n);
  await db
    .updateTable('notification_events')
    .set({ title: cut(socialSummaryTitle(actor.name, counts), 120), body: cut(body, 400), subject_id: pictureId })
    .where('id', '=', open.id)
    .execute();
  await db.updateTable('notification_inbox').set({ read_at: null }).where('event_id', '=', open.id).where('read_at', 'is not', null).execute();
}

/**
 * `picture.waiting`: an uploader's pictures that wait for approval are one notification ("4 pictures
 * wait for approval"), not one each. A new one joins the uploader's open event (not yet done, the
 * migration's trigger marks it done when none waits any more): its title says how many wait now, and
 * it is new again in the admins' inboxes. Already pushed is not pushed again. False when there is no
 * open event to join (the caller records a new one).
 */
export async function joinWaitingPictures(db: Executor, event: NewNotificationEvent): Promise<boolean> {
  const uploader = event.actorId ?? null;
  const open = await db
    .selectFrom('notification_events')
    .select('id')
    .where('kind', '=', 'picture.waiting')
    .where('done_at', 'is', null)
    .where('actor_id', 'is not distinct from', uploader)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!open) return false;
  const waiting = await db
    .selectFrom('pictures')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('status', '=', 'pending')
    .where('uploaded_by', 'is not distinct from', uploader)
    .executeTakeFirstOrThrow();
  const n = Number(waiting.n);
  await db
    .updateTable('notification_events')
    .set({ title: n === 1 ? event.title : `${n} pictures wait for approval`, body: cut(event.body, 400) })
    .where('id', '=', open.id)
    .execute();
  await db.updateTable('notification_inbox').set({ read_at: null }).where('event_id', '=', open.id).where('read_at', 'is not', null).execute();
  return true;
}

/** Failed checks in a row before a server counts as down (one lost answer is not an outage). */
export const FAILURES_FOR_DOWN = 2;

/**
 * Called with the transaction that stores a game server's check: counts failed checks in a row and
 * records `server.down` at the second, `server.up` at the first answer after that; each change once.
 * A server never seen answering is not announced as stopped.
 */
export async function serverChecked(db: Executor, server: { id: number; description: string }, status: GameServerStatus): Promise<void> {
  if (status === 'Unknown') return;
  const up = status === 'Online';
  const row = await db
    .insertInto('notification_server_watch')
    .values({ server_id: server.id, failures: up ? 0 : 1, announced: up ? 'up' : null })
    .onConflict((oc) =>
      oc.column('server_id').doUpdateSet({
        failures: up ? 0 : sql<number>`notification_server_watch.failures + 1`,
      }),
    )
    .returning(['failures', 'announced'])
    .executeTakeFirstOrThrow();
  const name = server.description.trim() === '' ? 'A game server' : server.description;
  const url = '/personal/game-servers';
  if (!up && row.failures >= FAILURES_FOR_DOWN && row.announced === 'up') {
    await db.updateTable('notification_server_watch').set({ announced: 'down' }).where('server_id', '=', server.id).execute();
    await recordEvent(db, { kind: 'server.down', subjectId: server.id, title: `${name} stopped answering`, body: 'It did not answer two checks in a row.', url });
  } else if (up && row.announced === 'down') {
    await db.updateTable('notification_server_watch').set({ announced: 'up' }).where('server_id', '=', server.id).execute();
    await recordEvent(db, { kind: 'server.up', subjectId: server.id, title: `${name} is back`, body: 'It answers again.', url });
  } else if (up && row.announced === null) {
    await db.updateTable('notification_server_watch').set({ announced: 'up' }).where('server_id', '=', server.id).execute();
  }
}
