import { sql } from 'kysely';
import type { AppDeps } from '../../deps.ts';
import type { ChannelListener } from '../../db/notifications.ts';
import { claimLeased } from '../../db/claim-leased.ts';
import { readSettings } from './notifications.repository.ts';
import { recipientsOf } from './notifications.recipients.ts';
import { inQuietHours, isMuted } from './notifications.quiet.ts';
import type { NotificationEventRecord } from './notifications.tables.ts';
import { createPushSender, STOPPING, type PushAnswer, type PushSender } from './push.send.ts';
import { startWorkerLoop } from '../worker-loop.ts';
import { ensureVapidKeys, vapidKeys, type VapidKeys } from './push.keys.ts';
import { periodicChecks } from './notifications.periodic.ts';

/** A claimed delivery is this worker's until then; after a crash another instance (or the restart) takes it over. */
export const LEASE_SECONDS = 60;
const BATCH = 200;
const CONCURRENCY = 64;
const IDLE_MS = 1000;
/** Retries stop after a day: the push would be older than its TTL anyway. */
const GIVE_UP_AFTER_ATTEMPTS = 16;

/** The channel the events table's trigger NOTIFYs on (migration 20261127_notifications_tables). */
export const PUSH_CHANNEL = 'site_push';

const wakers = new WeakMap<AppDeps, () => void>();

/** What the database's notifications on PUSH_CHANNEL do: wake this process's worker (server/src/watch-changes.ts). */
export function pushWakeListener(deps: AppDeps): ChannelListener {
  return { channel: PUSH_CHANNEL, onNotify: () => wakers.get(deps)?.(), onListening: () => wakers.get(deps)?.() };
}

/**
 * Turns the oldest waiting event into inbox rows and deliveries, in one transaction that holds the
 * event (FOR UPDATE SKIP LOCKED: another instance takes the next one). Who receives it is decided
 * here, now; a muted kind makes nothing for that member, quiet hours make the inbox row only.
 */
export async function fanOutOne(deps: AppDeps, now = new Date()): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const event = await trx
      .selectFrom('notification_events')
      .selectAll()
      .where('fanned_out_at', 'is', null)
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!event) return false;
    const members = await recipientsOf(trx, event);
    const settings = await readSettings(trx, members);
    const told = members.filter((id) => !isMuted(settings.get(id), event.kind));
    if (told.length > 0) {
      await trx
        .insertInto('notification_inbox')
        .values(told.map((user_id) => ({ event_id: event.id, user_id, read_at: null })))
        .onConflict((oc) => oc.columns(['event_id', 'user_id']).doNothing())
        .execute();
    }
    const pushed = told.filter((id) => !inQuietHours(settings.get(id), now));
    if (pushed.length > 0) {
      await sql`insert into push_deliveries (event_id, subscription_id)
        select ${event.id}, id from push_subscriptions where user_id in (${sql.join(pushed)})
        on conflict (event_id, subscription_id) do nothing`.execute(trx);
    }
    await trx.updateTable('notification_events').set({ fanned_out_at: sql<Date>`now()` }).where('id', '=', event.id).execute();
    return true;
  });
}

type Claimed = { id: number; event_id: number; attempts: number; endpoint: string; p256dh: string; auth: string; user_id: number; subscription_id: number };

/** Up to `limit` due deliveries for this worker (claimLeased): one per device at most, none for a device with one in flight. */
function claimDue(deps: AppDeps, limit: number): Promise<Claimed[]> {
  return claimLeased<Claimed>(deps.db, {
    table: 'push_deliveries',
    group: 'subscription_id',
    returning: ['id', 'event_id', 'attempts', 'subscription_id'],
    select: sql`select c.id, c.event_id, c.attempts, c.subscription_id, s.endpoint, s.p256dh, s.auth, s.user_id
      from claimed c join push_subscriptions s on s.id = c.subscription_id order by c.id`,
    limit,
    leaseSeconds: LEASE_SECONDS,
  });
}

/**
 * The pace of sending: one message every SEND_SPACING_MS at most, the sending tasks queued one behind
 * the other. Encrypting a message is synchronous (about a millisecond), and on two cores a fan-out at
 * full speed (1,000 devices in 2 s) doubled the other requests' p99; at this pace it takes about 4 s
 * (the goal is 10 s) and the pages' p99 stays within 1.5x of idle (bench:notifications).
 */
const SEND_SPACING_MS = 3;
let lastTurn: Promise<void> = Promise.resolve();
function nextTurn(): Promise<void> {
  const turn = lastTurn.then(() => new Promise<void>((resolve) => setTimeout(resolve, SEND_SPACING_MS)));
  lastTurn = turn;
  return turn;
}

/** Seconds before the next try: what the push service asked for, else 10 s doubling up to an hour. */
const backoff = (attempts: number, retryAfter: number | null) => Math.min(3600, retryAfter ?? 10 * 2 ** Math.min(attempts - 1, 9));

type Outcome =
  | { kind: 'delivered' }
  | { kind: 'gone' }
  | { kind: 'dropped' }
  | { kind: 'retry'; seconds: number; why: string }
  | { kind: 'failed'; why: string };

/** What a push service's answer (or a send that threw) means for the delivery. */
function outcomeOf(c: Claimed, answer: PushAnswer): Outcome {
  if (answer.status >= 200 && answer.status < 300) return { kind: 'delivered' };
  if (answer.status === 404 || answer.status === 410) return { kind: 'gone' };
  const why = answer.status === 0 ? (answer.problem ?? 'no answer') : `answered ${answer.status}`;
  if (answer.status === 0 || answer.status === 429 || answer.status >= 500) {
    if (c.attempts >= GIVE_UP_AFTER_ATTEMPTS) return { kind: 'failed', why: `no answer after ${c.attempts} tries (last ${answer.status}: ${why})` };
    return { kind: 'retry', seconds: backoff(c.attempts, answer.retryAfter), why };
  }
  return { kind: 'failed', why: `refused with ${answer.status}` };
}

/** Writes one delivery's outcome, on its own: another delivery's failure never holds it back. */
async function record(deps: AppDeps, c: Claimed, outcome: Outcome): Promise<void> {
  const db = deps.db;
  switch (outcome.kind) {
    case 'delivered':
      await db.updateTable('push_deliveries').set({ delivered_at: sql<Date>`now()`, lease_until: null }).where('id', '=', c.id).execute();
      return;
    case 'dropped':
      await db.updateTable('push_deliveries').set({ failed: 'no longer a recipient', lease_until: null }).where('id', '=', c.id).execute();
      return;
    case 'gone':
      await db.deleteFrom('push_subscriptions').where('id', '=', c.subscription_id).execute();
      return;
    case 'retry':
      await db.updateTable('push_deliveries').set({ lease_until: null, next_at: sql<Date>`now() + make_interval(secs => ${outcome.seconds})` }).where('id', '=', c.id).execute();
      return;
    case 'failed':
      await db.updateTable('push_deliveries').set({ failed: outcome.why, lease_until: null }).where('id', '=', c.id).execute();
  }
}

/**
 * A send that threw or got no answer is logged with the delivery's and the subscription's ids (never
 * the endpoint: its path is the device's secret address at the push service, nor the keys).
 */
function logTrouble(c: Claimed, outcome: Outcome): void {
  if (outcome.kind === 'retry' && (outcome.why.startsWith('answered ') || outcome.why === STOPPING)) return;
  if (outcome.kind === 'retry') console.warn(`site: push delivery ${c.id} to subscription ${c.subscription_id} failed (try ${c.attempts} of ${GIVE_UP_AFTER_ATTEMPTS}): ${outcome.why}; next try in ${outcome.seconds} s`);
  else if (outcome.kind === 'failed') console.warn(`site: push delivery ${c.id} to subscription ${c.subscription_id} given up: ${outcome.why}`);
}

/** Sends one claimed delivery and records what came of it; never throws (a throw is that delivery's failure). */
async function sendOne(deps: AppDeps, sender: PushSender, c: Claimed, payload: string, eventId: number, keys: VapidKeys): Promise<void> {
  let answer: PushAnswer;
  try {
    // Paced (SEND_SPACING_MS): the pages' requests get in between, and a fan-out does not hold them up.
    await nextTurn();
    answer = await sender.send(c, payload, eventId, keys);
  } catch (error) {
    answer = { status: 0, retryAfter: null, problem: `the send threw: ${error instanceof Error ? error.message : String(error)}` };
  }
  const outcome = outcomeOf(c, answer);
  logTrouble(c, outcome);
  try {
    await record(deps, c, outcome);
  } catch (error) {
    // The database away for a moment: the lease runs out and the delivery is claimed again.
    console.warn(`site: push delivery ${c.id} to subscription ${c.subscription_id}: its outcome could not be recorded`, error);
  }
}

/**
 * Claims up to `limit` due deliveries and starts sending each on its own; `sent` settles when all of
 * them are sent and recorded. Each is checked again first (the member's level, what the event is
 * about, the kind muted meanwhile): a push goes only to who may receive it at send time. 2xx:
 * delivered. 404/410: the subscription is gone, deleted (with its deliveries). 429, 5xx, no answer
 * within the deadline or a send that threw: tried again later with backoff, given up after
 * GIVE_UP_AFTER_ATTEMPTS tries. Any other refusal: given up, recorded.
 */
async function claimAndSend(deps: AppDeps, sender: PushSender, limit: number): Promise<{ claimed: number; sends: Promise<void>[] }> {
  const claimed = await claimDue(deps, limit);
  if (claimed.length === 0) return { claimed: 0, sends: [] };
  const keys = await vapidKeys(deps.db);
  const eventIds = [...new Set(claimed.map((c) => c.event_id))];
  const events = new Map(
    (await deps.db.selectFrom('notification_events').selectAll().where('id', 'in', eventIds).execute()).map((e) => [e.id, e] as const),
  );
  const settings = await readSettings(deps.db, [...new Set(claimed.map((c) => c.user_id))]);
  const allowed = new Map<number, Set<number>>();
  for (const event of events.values()) {
    const users = [...new Set(claimed.filter((c) => c.event_id === event.id).map((c) => c.user_id))];
    allowed.set(event.id, new Set(await recipientsOf(deps.db, event, users)));
  }
  const payloadOf = (event: NotificationEventRecord) =>
    JSON.stringify({ id: event.id, kind: event.kind, title: event.title, body: event.body, url: event.url });
  const sends = claimed.map((c) => {
    const event = events.get(c.event_id);
    if (!event || !allowed.get(c.event_id)?.has(c.user_id) || isMuted(settings.get(c.user_id), event.kind)) {
      return record(deps, c, { kind: 'dropped' }).catch(() => undefined);
    }
    return sendOne(deps, sender, c, payloadOf(event), event.id, keys);
  });
  return { claimed: claimed.length, sends };
}

/**
 * The deliveries this process is sending, CONCURRENCY at most: `fill` claims as many as there are
 * free places and starts them without waiting for them, so one slow device holds one place (for
 * the deadline at most) and never the others, nor the fan-out.
 */
export function createSendPool(deps: AppDeps, sender: PushSender, onSettled: () => void = () => undefined) {
  let inFlight = 0;
  const running = new Set<Promise<void>>();
  return {
    async fill(): Promise<boolean> {
      const free = CONCURRENCY - inFlight;
      if (free <= 0) return false;
      const { claimed, sends } = await claimAndSend(deps, sender, Math.min(free, BATCH));
      for (const send of sends) {
        inFlight++;
        const tracked: Promise<void> = send.finally(() => {
          inFlight--;
          running.delete(tracked);
          onSettled();
        });
        running.add(tracked);
      }
      return claimed > 0;
    },
    busy: () => inFlight > 0,
    /** Resolves when one of the sends in flight settles (at once when none is). */
    async next(): Promise<void> {
      if (running.size > 0) await Promise.race(running);
    },
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.all(running);
    },
  };
}

/** Sends every due delivery it can claim (BATCH at most) and waits for all of them. */
export async function sendDue(deps: AppDeps, sender: PushSender): Promise<number> {
  const { claimed, sends } = await claimAndSend(deps, sender, BATCH);
  await Promise.all(sends);
  return claimed;
}

/** Fans out and sends until nothing is left due (tests and the bench call it directly). */
export async function drainNotifications(deps: AppDeps, sender: PushSender): Promise<void> {
  for (;;) {
    let worked = false;
    while (await fanOutOne(deps)) worked = true;
    if ((await sendDue(deps, sender)) > 0) worked = true;
    if (!worked) return;
  }
}

/**
 * The area's worker: wakes at every event's commit (PUSH_CHANNEL, any instance) and at least once a
 * second for retries that fell due. Two loops: one fans events out and runs the periodic checks (the
 * followed game servers, the 08:00 digest), the other keeps the send pool full; neither waits for
 * the other, so a device that answers slowly never holds up an inbox or another member's push.
 * Everything it works from is in the database, so a restart, or a kill -9, resumes where it stopped.
 */
export function startNotificationsWorker(deps: AppDeps): { stop(): Promise<void> } {
  const sender = createPushSender(deps.config);
  const periodic = periodicChecks(deps);
  const keysMade = Promise.all([
    ensureVapidKeys(deps.db),
    // On PGlite this process is the only one the database has: a lease still held is a previous
    // life's (a crash, a kill -9), so its deliveries are taken back at once instead of after the lease.
    deps.config.databaseUrl ? null : deps.db.updateTable('push_deliveries').set({ lease_until: null }).where('lease_until', 'is not', null).execute(),
  ]).catch(() => undefined);
  const pool = createSendPool(deps, sender, () => sending.wake());
  const fanning = startWorkerLoop(
    async () => {
      let worked = false;
      while (!fanning.stopped() && (await fanOutOne(deps))) worked = true;
      if (worked) sending.wake();
      if (!fanning.stopped()) await periodic.runIfDue();
      return worked;
    },
    IDLE_MS,
    keysMade,
  );
  const sending = startWorkerLoop(() => pool.fill(), IDLE_MS, keysMade);
  wakers.set(deps, () => {
    fanning.wake();
    sending.wake();
  });
  return {
    async stop() {
      wakers.delete(deps);
      await Promise.all([fanning.stop(), sending.stop()]);
      // The sends in flight end now (no answer: tried again after a restart) and record that.
      sender.close();
      await pool.idle();
    },
  };
}
