import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import {
  mayReceive,
  NOTIFICATION_KINDS,
  WEBHOOK_LOG_SIZE,
  WEBHOOK_TEST_TYPE,
  WEBHOOKS_PER_MEMBER,
  webhookMessages as m,
  type CreatedWebhook,
  type CreateWebhookInput,
  type NotificationKind,
  type UpdateWebhookInput,
  type WebhookAttempt,
  type WebhookRow,
  type WebhookStatus,
} from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { checkTarget, createWebhookSender, secretText } from './webhooks.send.ts';
import { logAttempt, messageBody, newMessageId } from './webhooks.worker.ts';
import type { WebhookRecord } from './webhooks.tables.ts';

/** The kinds refused when the member's level cannot receive one of them now. */
function checkKinds(user: SessionUser, events: readonly NotificationKind[]): string {
  for (const kind of events) if (!mayReceive(kind, user)) throw new AppError('BAD_REQUEST', m.kindNotYours(NOTIFICATION_KINDS[kind].label));
  return JSON.stringify([...new Set(events)]);
}

const statusOf = (hook: WebhookRecord): WebhookStatus => (hook.paused_at ? 'paused' : hook.failing_since ? 'failing' : 'active');

async function rowsOf(deps: AppDeps, hooks: WebhookRecord[]): Promise<WebhookRow[]> {
  if (hooks.length === 0) return [];
  const last = await deps.db
    .selectFrom('webhook_attempts')
    .select(['webhook_id', 'at', 'status'])
    .where('id', 'in', (eb) => eb.selectFrom('webhook_attempts').select((e) => e.fn.max('id').as('id')).where('webhook_id', 'in', hooks.map((h) => h.id)).groupBy('webhook_id'))
    .execute();
  const lastOf = new Map(last.map((a) => [a.webhook_id, a] as const));
  return hooks.map((hook) => {
    const attempt = lastOf.get(hook.id);
    return {
      id: hook.id,
      url: hook.url,
      events: JSON.parse(hook.events) as NotificationKind[],
      status: statusOf(hook),
      createdAt: new Date(hook.created_at).toISOString(),
      lastAttempt: attempt ? { at: new Date(attempt.at).toISOString(), status: attempt.status, ok: attempt.status >= 200 && attempt.status < 300 } : null,
    };
  });
}

async function ownHook(deps: AppDeps, user: SessionUser, id: number): Promise<WebhookRecord> {
  const hook = await deps.db.selectFrom('webhooks').selectAll().where('id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
  if (!hook) throw new AppError('NOT_FOUND', m.notFound);
  return hook;
}

export async function list(deps: AppDeps, user: SessionUser): Promise<WebhookRow[]> {
  return rowsOf(deps, await deps.db.selectFrom('webhooks').selectAll().where('user_id', '=', user.id).orderBy('id').execute());
}

/** A new webhook, with its signing secret (`whsec_` + base64 of 32 random bytes), which only this answer shows. */
export async function create(deps: AppDeps, user: SessionUser, input: CreateWebhookInput): Promise<CreatedWebhook> {
  const events = checkKinds(user, input.events);
  const url = await checkTarget(deps.config, input.url);
  const key = randomBytes(32).toString('base64');
  const hook = await deps.db.transaction().execute(async (trx) => {
    // The member's row locked: two creations at once count each other.
    await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().execute();
    const { n } = await trx.selectFrom('webhooks').select((eb) => eb.fn.countAll<string | number>().as('n')).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    if (Number(n) >= WEBHOOKS_PER_MEMBER) throw new AppError('BAD_REQUEST', m.tooMany);
    return trx.insertInto('webhooks').values({ user_id: user.id, url: url.toString(), events, secret: key, failing_since: null, paused_at: null }).returningAll().executeTakeFirstOrThrow();
  });
  const [row] = await rowsOf(deps, [hook]);
  return { ...(row as WebhookRow), secret: secretText(key) };
}

/** A new address or kinds (checked as at creation); `active` pauses it, or resumes it with its failures forgotten. */
export async function update(deps: AppDeps, user: SessionUser, input: UpdateWebhookInput): Promise<WebhookRow> {
  await ownHook(deps, user, input.id);
  const changes: { url?: string; events?: string; paused_at?: Date | null; failing_since?: null } = {};
  if (input.events) changes.events = checkKinds(user, input.events);
  if (input.url !== undefined) changes.url = (await checkTarget(deps.config, input.url)).toString();
  const query = deps.db.updateTable('webhooks').where('id', '=', input.id).where('user_id', '=', user.id);
  const withPause =
    input.active === true
      ? query.set({ ...changes, paused_at: null, failing_since: null })
      : input.active === false
        ? query.set({ ...changes, paused_at: sql<Date>`coalesce(paused_at, now())` })
        : query.set(changes);
  const hook = Object.keys(changes).length === 0 && input.active === undefined ? await ownHook(deps, user, input.id) : await withPause.returningAll().executeTakeFirstOrThrow();
  const [row] = await rowsOf(deps, [hook]);
  return row as WebhookRow;
}

export async function remove(deps: AppDeps, user: SessionUser, id: number): Promise<{ ok: true }> {
  const gone = await deps.db.deleteFrom('webhooks').where('id', '=', id).where('user_id', '=', user.id).returning('id').executeTakeFirst();
  if (!gone) throw new AppError('NOT_FOUND', m.notFound);
  return { ok: true };
}

type AttemptRow = { id: number; message_id: string; type: string; attempt: number; status: number; problem: string | null; at: Date; duration_ms: number };

const attemptOf = (a: AttemptRow): WebhookAttempt => ({
  id: a.id,
  messageId: a.message_id,
  type: a.type,
  status: a.status,
  ok: a.status >= 200 && a.status < 300,
  problem: a.problem,
  at: new Date(a.at).toISOString(),
  durationMs: a.duration_ms,
  attempt: a.attempt,
});

/** The webhook's last WEBHOOK_LOG_SIZE attempts, newest first. */
export async function deliveries(deps: AppDeps, user: SessionUser, id: number): Promise<WebhookAttempt[]> {
  await ownHook(deps, user, id);
  const rows = await deps.db.selectFrom('webhook_attempts').selectAll().where('webhook_id', '=', id).orderBy('id', 'desc').limit(WEBHOOK_LOG_SIZE).execute();
  return rows.map(attemptOf);
}

/** Sends one `webhook.test` message now (paused or not, never retried) and answers its attempt, logged with the others. */
export async function test(deps: AppDeps, user: SessionUser, id: number): Promise<WebhookAttempt> {
  const hook = await ownHook(deps, user, id);
  const message = { id: newMessageId(), type: WEBHOOK_TEST_TYPE, attempt: 1 };
  const payload = messageBody(WEBHOOK_TEST_TYPE, new Date(), { webhookId: hook.id, member: user.name, title: 'A test from the Account page' });
  const sender = createWebhookSender(deps.config);
  const answer = await sender.send({ url: hook.url, secret: hook.secret }, { id: message.id, payload });
  const attemptId = await logAttempt(deps.db, hook.id, message, answer);
  const row = await deps.db.selectFrom('webhook_attempts').selectAll().where('id', '=', attemptId).executeTakeFirstOrThrow();
  return attemptOf(row);
}
