import https from 'node:https';
import webpush from 'web-push';
import type { Config } from '../../config.ts';
import { pinnedLookup } from '../../net/fetch-page.ts';
import { pushGuard, pushPolicy } from './push.guard.ts';
import type { VapidKeys } from './push.keys.ts';

export type PushTarget = { endpoint: string; p256dh: string; auth: string };

/** What the push service answered: its status (0 when it could not be reached) and Retry-After in seconds. */
export type PushAnswer = { status: number; retryAfter: number | null };

/** A day: a phone that stays off longer gets the inbox, not a pile of old pushes. */
const TTL_SECONDS = 24 * 3600;
const TIMEOUT_MS = 15_000;
/** A VAPID JWT's lifetime (24 h at most, RFC 8292). */
const VAPID_HOURS = 12;


/**
 * Sends Web Push messages (RFC 8030/8291/8292): `web-push` encrypts the payload (aes128gcm) and signs
 * the VAPID JWT; the request itself goes out here, over one keep-alive agent, to the address the
 * address guard allowed (checked again before each send: a browser's endpoint is an outside URL).
 * The `Topic` header is made from the event id, so a push service replaces a resend after a crash
 * instead of showing it twice.
 */
export function createPushSender(config: Config) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 64 });
  const resolved = new Map<string, { addresses: string[]; at: number }>();
  const signed = new Map<string, { authorization: string; until: number; key: string }>();

  /**
   * The VAPID `Authorization` for a push service (its origin is the JWT's `aud`), signed once and used
   * for 11 of its 12 hours: signing (ES256 after a key conversion in JavaScript) per message would cost
   * a fan-out to a thousand devices most of its time.
   */
  function authorizationFor(audience: string, keys: VapidKeys): string {
    const now = Date.now();
    const known = signed.get(audience);
    if (known && known.until > now && known.key === keys.publicKey) return known.authorization;
    const expiration = Math.floor(now / 1000) + VAPID_HOURS * 3600;
    const headers = webpush.getVapidHeaders(audience, config.push.subject, keys.publicKey, keys.privateKey, 'aes128gcm', expiration);
    signed.set(audience, { authorization: headers.Authorization, until: now + (VAPID_HOURS - 1) * 3600_000, key: keys.publicKey });
    return headers.Authorization;
  }

  async function addressOf(host: string): Promise<string> {
    const known = resolved.get(host);
    if (known && Date.now() - known.at < 60_000) return known.addresses[0] as string;
    const addresses = await pushGuard.resolveAllowed(host, pushPolicy(config, host));
    resolved.set(host, { addresses, at: Date.now() });
    return addresses[0] as string;
  }

  async function send(target: PushTarget, payload: string, eventId: number, keys: VapidKeys): Promise<PushAnswer> {
    const url = new URL(target.endpoint);
    let address: string;
    try {
      address = await addressOf(url.hostname);
    } catch {
      // Unknown now, or moved to a private address: not sent; the caller retries later.
      return { status: 0, retryAfter: null };
    }
    // Without vapidDetails web-push encrypts only; the signed header is added here (authorizationFor).
    const details = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
      TTL: TTL_SECONDS,
      topic: `event${eventId}`,
      urgency: 'normal',
      contentEncoding: 'aes128gcm',
    });
    return new Promise<PushAnswer>((resolve) => {
      const req = https.request(
        url,
        {
          method: 'POST',
          agent,
          lookup: pinnedLookup(address),
          headers: { ...(details.headers as Record<string, string | number>), Authorization: authorizationFor(url.origin, keys) },
          timeout: TIMEOUT_MS,
        },
        (res) => {
          res.resume();
          const retry = Number(res.headers['retry-after']);
          res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: Number.isFinite(retry) && retry >= 0 ? retry : null }));
          res.on('error', () => resolve({ status: 0, retryAfter: null }));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => resolve({ status: 0, retryAfter: null }));
      req.end(details.body);
    });
  }

  return { send, close: () => agent.destroy() };
}

export type PushSender = ReturnType<typeof createPushSender>;
