import { createPublicKey } from 'node:crypto';
import { sql } from 'kysely';
import { notificationMessages as m, type PushSubscribeInput } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { checkEndpoint } from './push.guard.ts';
import { vapidKeys } from './push.keys.ts';

/** Subscriptions one account may hold: one per browser it uses. A new one beyond it replaces the oldest. */
export const MAX_SUBSCRIPTIONS_PER_ACCOUNT = 5;

/** `push.vapidKey`: the public key browsers subscribe with (applicationServerKey). */
export async function vapidKey(deps: AppDeps): Promise<{ publicKey: string }> {
  return { publicKey: (await vapidKeys(deps.db)).publicKey };
}

/** The bytes of a base64url value, or null when it is not exactly that (padding aside). */
function base64urlBytes(value: string): Buffer | null {
  const bytes = Buffer.from(value, 'base64url');
  return bytes.toString('base64url') === value.replace(/=+$/, '') ? bytes : null;
}

/**
 * The browser's keys as RFC 8291 needs them: p256dh an uncompressed P-256 point (65 bytes, 0x04, on
 * the curve: node:crypto refuses a point that is not) and auth a 16-byte secret. Keys that are not
 * would make encrypting every message to that device throw.
 */
export function checkBrowserKeys(keys: { p256dh: string; auth: string }): void {
  const point = base64urlBytes(keys.p256dh);
  let onCurve = false;
  if (point && point.length === 65 && point[0] === 4) {
    try {
      createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
      onCurve = true;
    } catch {
      // not a point on P-256
    }
  }
  if (!onCurve) throw new AppError('BAD_REQUEST', m.badP256dh);
  if (base64urlBytes(keys.auth)?.length !== 16) throw new AppError('BAD_REQUEST', m.badAuth);
}

/**
 * `push.subscribe`: this signed-in device's subscription, tied to its session. Subscribing again
 * from the same browser (same endpoint) moves it to this session. An endpoint another account holds
 * is refused (signing that account out on the browser removes it: the subscription ends with its
 * session). An account holds MAX_SUBSCRIPTIONS_PER_ACCOUNT at most: a new browser beyond them
 * replaces the oldest. A personal API token has no session, so it cannot subscribe.
 */
export async function subscribe(deps: AppDeps, user: SessionUser, sessionHash: string | null, input: PushSubscribeInput): Promise<{ ok: true }> {
  if (sessionHash === null) throw new AppError('BAD_REQUEST', m.noSession);
  checkBrowserKeys(input.keys);
  const url = await checkEndpoint(deps.config, input.endpoint);
  const values = { user_id: user.id, session_hash: sessionHash, p256dh: input.keys.p256dh, auth: input.keys.auth };
  await deps.db.transaction().execute(async (trx) => {
    // The account's row, locked: two subscribes of one account at once count one after the other.
    await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().execute();
    const saved = await trx
      .insertInto('push_subscriptions')
      .values({ endpoint: url.href, ...values })
      .onConflict((oc) => oc.column('endpoint').doUpdateSet(values).where('push_subscriptions.user_id', '=', user.id))
      .returning('id')
      .executeTakeFirst();
    if (!saved) throw new AppError('BAD_REQUEST', m.endpointTaken);
    await sql`delete from push_subscriptions where user_id = ${user.id} and id not in (
      select id from push_subscriptions where user_id = ${user.id} order by created_at desc, id desc limit ${MAX_SUBSCRIPTIONS_PER_ACCOUNT})`.execute(trx);
  });
  return { ok: true };
}

/** `push.unsubscribe`: removes the member's own subscription at that endpoint (nothing when none). */
export async function unsubscribe(deps: AppDeps, user: SessionUser, endpoint: string): Promise<{ ok: true }> {
  let href = endpoint;
  try {
    href = new URL(endpoint).href;
  } catch {
    // not a URL: matches nothing
  }
  await deps.db.deleteFrom('push_subscriptions').where('user_id', '=', user.id).where('endpoint', '=', href).execute();
  return { ok: true };
}
