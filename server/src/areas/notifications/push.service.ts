import { notificationMessages as m, type PushSubscribeInput } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { checkEndpoint } from './push.guard.ts';
import { vapidKeys } from './push.keys.ts';

/** `push.vapidKey`: the public key browsers subscribe with (applicationServerKey). */
export async function vapidKey(deps: AppDeps): Promise<{ publicKey: string }> {
  return { publicKey: (await vapidKeys(deps.db)).publicKey };
}

/**
 * `push.subscribe`: this signed-in device's subscription, tied to its session. Subscribing again
 * from the same browser (same endpoint) moves it to this session and account. A personal API token
 * has no session, so it cannot subscribe.
 */
export async function subscribe(deps: AppDeps, user: SessionUser, sessionHash: string | null, input: PushSubscribeInput): Promise<{ ok: true }> {
  if (sessionHash === null) throw new AppError('BAD_REQUEST', m.noSession);
  const url = await checkEndpoint(deps.config, input.endpoint);
  const values = { user_id: user.id, session_hash: sessionHash, p256dh: input.keys.p256dh, auth: input.keys.auth };
  await deps.db
    .insertInto('push_subscriptions')
    .values({ endpoint: url.href, ...values })
    .onConflict((oc) => oc.column('endpoint').doUpdateSet(values))
    .execute();
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
