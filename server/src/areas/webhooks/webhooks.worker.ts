import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { allows, procedures, WEBHOOK_LOG_SIZE, type Level } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/database.ts';
import { claimLeased } from '../../db/claim-leased.ts';
import { recipientsOf, type NotificationEventRecord } from '../notifications/notifications.port.ts';
import { recordEvent } from '../notifications/notifications.events.ts';
import { startWorkerLoop } from '../worker-loop.ts';
import { createWebhookSender, STOPPING, type WebhookAnswer, type WebhookSender } from './webhooks.send.ts';

/** A claimed delivery is this worker's until then; after a crash another instance (or the restart) takes it over. */
export const LEASE_SECONDS = 60;
/** Polled this often: the first try goes out within about a second of the change's commit. */
const IDLE_MS = 1000;
const CONCURRENCY = 16;
/**
 * The waits between tries (seconds, then minutes, then hours): the tenth try comes about 23 hours
 * after the first, and none comes after a day.
 */
export const RETRY_SECONDS = [5, 30, 120, 600, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600] as const;
const DAY_SECONDS = 24 * 3600;

/** A new message id: `msg_` and 128 random bits, the same at every try of the message. */
export const newMessageId = () => `msg_${randomBytes(16).toString('base64url')}`;

/** The JSON body of a message: `{ type, timestamp, data }`. */
export function messageBody(type: string, timestamp: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: timestamp.toISOString(), data });
}

/**
 * The members among `userIds` whose webhooks may carry the event NOW: the notifications' own rule for
 * it (the kind's row in the permission table, the thing it is about still theirs to see) and still a
 * level that may have webhooks at all. Asked at the fan-out and again before every try.
 */
export async function mayCarry(db: Executor, event: NotificationEventRecord, userIds: readonly number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const members = await db.selectFrom('users').select(['id', 'level']).where('id', 'in', userIds).execute();
  const withHooks = members.filter((u) => allows(procedures['webhooks.list'], { name: '', level: u.level as Level })).map((u) => u.id);
  return new Set(await recipientsOf(db, event, withHooks));
}

/**
 * Takes the oldest event no instance has taken yet (made in the last day, after some active webhook)
 * and makes one delivery per webhook that wants its kind and may carry it. The event is taken by
 * inserting its row in webhook_events_seen in the same transaction: a second instance's insert waits
 * for this one's commit and then finds it there, so each event makes its deliveries once.
 */
export async function fanOutOne(deps: AppDeps): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const found = await sql<NotificationEventRecord>`
      select e.* from notification_events e
      where e.joined_to is null and e.created_at > now() - interval '1 day'
        and exists (select 1 from webhooks w where w.paused_at is null and w.created_at <= e.created_at)
        and not exists (select 1 from webhook_events_seen s where s.event_id = e.id)
      order by e.id limit 1`.execute(trx);
    const event = found.rows[0];
    if (!event) return false;
    const taken = await trx.insertInto('webhook_events_seen').values({ event_id: event.id }).onConflict((oc) => oc.column('event_id').doNothing()).returning('event_id').executeTakeFirst();
    if (!taken) return true;
    const hooks = (
      await trx.selectFrom('webhooks').select(['id', 'user_id', 'events']).where('paused_at', 'is', null).where('created_at', '<=', event.created_at).execute()
    ).filter((h) => (JSON.parse(h.events) as string[]).includes(event.kind));
    const allowed = await mayCarry(trx, event, [...new Set(hooks.map((h) => h.user_id))]);
    const data = { id: event.id, title: event.title, body: event.body, url: deps.config.publicUrl ? new URL(event.url, deps.config.publicUrl).toString() : event.url };
    const rows = hooks
      .filter((h) => allowed.has(h.user_id))
      .map((h) => ({ webhook_id: h.id, event_id: event.id, message_id: newMessageId(), type: event.kind, payload: messageBody(event.kind, new Date(event.created_at), data), lease_until: null, delivered_at: null, failed: null }));
    if (rows.length > 0) await trx.insertInto('webhook_deliveries').values(rows).onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing()).execute();
    return true;
  });
}

type Claimed = {
  id: number;
  webhook_id: number;
  event_id: number;
  message_id: string;
  type: string;
  payload: string;
  attempts: number;
  created_at: Date;
  url: string;
  secret: string;
  user_id: number;
};

/**
 * Up to `limit` due deliveries for this worker (claimLeased, as the push deliveries are claimed): one
 * per webhook at most, none for a webhook with one in flight or paused.
 */
function claimDue(deps: AppDeps, limit: number): Promise<Claimed[]> {
  return claimLeased<Claimed>(deps.db, {
    table: 'webhook_deliveries',
    group: 'webhook_id',
    join: sql`join webhooks w on w.id = d.webhook_id and w.paused_at is null`,
    returning: ['id', 'webhook_id', 'event_id', 'message_id', 'type', 'payload', 'attempts', 'created_at'],
    select: sql`select c.*, w.url, w.secret, w.user_id from claimed c join webhooks w on w.id = c.webhook_id order by c.id`,
    limit,
    leaseSeconds: LEASE_SECONDS,
  });
}

type Outcome = { kind: 'delivered' } | { kind: 'retry'; seconds: number } | { kind: 'failed'; why: string };

/** 2xx: delivered. No answer, 408, 429, 5xx: tried again by RETRY_SECONDS within a day. Any other answer: given up. */
export function outcomeOf(attempts: number, createdAt: Date, answer: WebhookAnswer, now = Date.now()): Outcome {
  if (answer.status >= 200 && answer.status < 300) return { kind: 'delivered' };
  const why = answer.status === 0 ? (answer.problem ?? 'no answer') : `answered ${answer.status}`;
  const again = answer.status === 0 || answer.status === 408 || answer.status === 429 || answer.status >= 500;
  if (!again) return { kind: 'failed', why: answer.status >= 300 && answer.status < 400 ? `${why} (redirects are not followed)` : why };
  const seconds = RETRY_SECONDS[attempts - 1];
  const ageSeconds = (now - createdAt.getTime()) / 1000;
  if (seconds === undefined || ageSeconds + seconds > DAY_SECONDS) return { kind: 'failed', why: `no success after ${attempts} tries (last: ${why})` };
  return { kind: 'retry', seconds };
}

/** Logs one attempt and keeps the last WEBHOOK_LOG_SIZE of the webhook's. */
export async function logAttempt(db: Executor, webhookId: number, message: { id: string; type: string; attempt: number }, answer: WebhookAnswer): Promise<number> {
  const row = await db
    .insertInto('webhook_attempts')
    .values({ webhook_id: webhookId, message_id: message.id, type: message.type, attempt: message.attempt, status: answer.status, problem: answer.problem, duration_ms: answer.durationMs })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`delete from webhook_attempts where webhook_id = ${webhookId} and id <= (
      select id from webhook_attempts where webhook_id = ${webhookId} order by id desc offset ${WEBHOOK_LOG_SIZE} limit 1)`.execute(db);
  return row.id;
}

/** A webhook whose tries have all failed for this long is paused and its member told. */
export const PAUSE_AFTER_SECONDS = DAY_SECONDS;

/**
 * Keeps the webhook's failing state: a success forgets the failures; a failure starts the count, and
 * a webhook failing for PAUSE_AFTER_SECONDS is paused (its waiting messages given up) and its member
 * gets a `webhook.paused` notification, in one transaction.
 */
async function trackHealth(trx: Executor, c: Claimed, ok: boolean): Promise<void> {
  if (ok) {
    await trx.updateTable('webhooks').set({ failing_since: null }).where('id', '=', c.webhook_id).where('failing_since', 'is not', null).execute();
    return;
  }
  const hook = await trx
    .updateTable('webhooks')
    .set({ failing_since: sql<Date>`coalesce(failing_since, now())` })
    .where('id', '=', c.webhook_id)
    .returning([sql<boolean>`failing_since <= now() - make_interval(secs => ${PAUSE_AFTER_SECONDS})`.as('due'), 'paused_at', 'url'])
    .executeTakeFirst();
  if (!hook?.due || hook.paused_at) return;
  await trx.updateTable('webhooks').set({ paused_at: sql<Date>`now()` }).where('id', '=', c.webhook_id).execute();
  await trx
    .updateTable('webhook_deliveries')
    .set({ failed: 'the webhook was paused', lease_until: null })
    .where('webhook_id', '=', c.webhook_id)
    .where('delivered_at', 'is', null)
    .where('failed', 'is', null)
    .execute();
  await recordEvent(trx, {
    kind: 'webhook.paused',
    userId: c.user_id,
    subjectId: c.webhook_id,
    title: 'A webhook was paused',
    body: `Every try to ${hook.url} failed for a day: see its deliveries and resume it on the Account page.`,
    url: '/personal/account',
  });
}

/** Writes what came of one try, in one transaction: the log, the delivery (delivered at most once), the webhook's health. */
async function record(deps: AppDeps, c: Claimed, answer: WebhookAnswer): Promise<void> {
  const outcome = outcomeOf(c.attempts, new Date(c.created_at), answer);
  await deps.db.transaction().execute(async (trx) => {
    await logAttempt(trx, c.webhook_id, { id: c.message_id, type: c.type, attempt: c.attempts }, answer);
    const row = trx.updateTable('webhook_deliveries').where('id', '=', c.id).where('delivered_at', 'is', null);
    if (outcome.kind === 'delivered') await row.set({ delivered_at: sql<Date>`now()`, lease_until: null }).execute();
    else if (outcome.kind === 'retry') await row.set({ lease_until: null, next_at: sql<Date>`now() + make_interval(secs => ${outcome.seconds})` }).execute();
    else await row.set({ failed: outcome.why, lease_until: null }).execute();
    await trackHealth(trx, c, outcome.kind === 'delivered');
  });
}

/** Sends one claimed delivery and records it; never throws. A send cut short by a stop is left to the lease (tried again after the restart). */
async function sendOne(deps: AppDeps, sender: WebhookSender, c: Claimed): Promise<void> {
  const answer = await sender.send({ url: c.url, secret: c.secret }, { id: c.message_id, payload: c.payload });
  if (answer.problem === STOPPING) return;
  try {
    await record(deps, c, answer);
  } catch (error) {
    console.warn(`site: webhook delivery ${c.id} of webhook ${c.webhook_id}: its outcome could not be recorded`, error);
  }
}

/**
 * Claims due deliveries and starts each (not waited for). Before each try the member's rights are
 * checked again: a delivery whose member may no longer receive the event (lowered, the thing gone)
 * is given up unsent.
 */
async function claimAndSend(deps: AppDeps, sender: WebhookSender, limit: number): Promise<Promise<void>[]> {
  if (limit <= 0) return [];
  const claimed = await claimDue(deps, limit);
  if (claimed.length === 0) return [];
  const eventIds = [...new Set(claimed.map((c) => c.event_id))];
  const events = new Map((await deps.db.selectFrom('notification_events').selectAll().where('id', 'in', eventIds).execute()).map((e) => [e.id, e] as const));
  const sends: Promise<void>[] = [];
  for (const c of claimed) {
    const event = events.get(c.event_id);
    const allowed = event ? await mayCarry(deps.db, event, [c.user_id]) : new Set<number>();
    if (!allowed.has(c.user_id)) {
      sends.push(
        deps.db
          .updateTable('webhook_deliveries')
          .set({ failed: 'no longer for its member', lease_until: null })
          .where('id', '=', c.id)
          .execute()
          .then(() => undefined, () => undefined),
      );
    } else sends.push(sendOne(deps, sender, c));
  }
  return sends;
}

/** Fans out and sends until nothing is due now (tests call it). */
export async function drainWebhooks(deps: AppDeps, sender: WebhookSender): Promise<void> {
  for (;;) {
    let worked = false;
    while (await fanOutOne(deps)) worked = true;
    const sends = await claimAndSend(deps, sender, 100);
    await Promise.all(sends);
    if (!worked && sends.length === 0) return;
  }
}

/**
 * The area's worker: once a second (and at once while there is work) it takes new events and keeps up
 * to CONCURRENCY sends in flight, each alone (a slow receiver holds one place for 10 s at most).
 * Everything is in the database, so a restart or a kill -9 resumes where it stopped.
 */
export function startWebhooksWorker(deps: AppDeps): { stop(): Promise<void> } {
  const sender = createWebhookSender(deps.config);
  const running = new Set<Promise<void>>();
  let prunedAt = 0;
  // On PGlite this process is the only one the database has: a lease still held is a previous life's.
  const ready = deps.config.databaseUrl
    ? Promise.resolve()
    : deps.db.updateTable('webhook_deliveries').set({ lease_until: null }).where('lease_until', 'is not', null).execute().then(() => undefined, () => undefined);
  const loop = startWorkerLoop(
    async () => {
      let worked = false;
      while (!loop.stopped() && (await fanOutOne(deps))) worked = true;
      if (loop.stopped()) return false;
      for (const send of await claimAndSend(deps, sender, CONCURRENCY - running.size)) {
        worked = true;
        const tracked: Promise<void> = send.finally(() => {
          running.delete(tracked);
          loop.wake();
        });
        running.add(tracked);
      }
      if (Date.now() - prunedAt > 3600_000) {
        prunedAt = Date.now();
        await deps.db.deleteFrom('webhook_events_seen').where('seen_at', '<', sql<Date>`now() - interval '2 days'`).execute();
        await deps.db.deleteFrom('webhook_deliveries').where('created_at', '<', sql<Date>`now() - interval '7 days'`).execute();
      }
      return worked && running.size < CONCURRENCY;
    },
    IDLE_MS,
    ready,
  );
  return {
    async stop() {
      await loop.stop();
      sender.close();
      await Promise.all(running);
    },
  };
}
