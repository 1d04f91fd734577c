import https from 'node:https';
import webpush from 'web-push';
import type { Config } from '../../config.ts';
import { pinnedLookup } from '../../net/fetch-page.ts';
import { pushGuard, pushPolicy } from './push.guard.ts';
import type { VapidKeys } from './push.keys.ts';

export type PushTarget = { endpoint: string; p256dh: string; auth: string };

/**
 * What the push service answered: its status (0 when it could not be reached or did not finish in
 * time) and Retry-After in seconds; `problem` says why a status 0 is one (for the log).
 */
export type PushAnswer = { status: number; retryAfter: number | null; problem?: string };

/** A day: a phone that stays off longer gets the inbox, not a pile of old pushes. */
const TTL_SECONDS = 24 * 3600;
/**
 * The deadline over one whole request (connect, send, the answer's last byte): a push service that
 * answers a byte at a time, or not at all, holds that one delivery this long and no more.
 */
export const DEADLINE_MS = 15_000;

/** The problem of a send cut short because this server is stopping (not the device's doing: not logged). */
export const STOPPING = 'the server stopped before the answer';
/** A VAPID JWT's lifetime (24 h at most, RFC 8292). */
const VAPID_HOURS = 12;


/**
 * Sends Web Push messages (RFC 8030/8291/8292): `web-push` encrypts the payload (aes128gcm) and signs
 * the VAPID JWT; the request itself goes out here, over one keep-alive agent, to the address the
 * address guard allowed (checked again before each send: a browser's endpoint is an outside URL).
 * The `Topic` header is made from the event id, so a push service replaces a resend after a crash
 * instead of showing it twice.
 */
export function createPushSender(config: Config, options: { deadlineMs?: number } = {}) {
  const deadlineMs = options.deadlineMs ?? DEADLINE_MS;
  /** Aborts every request in flight when the server stops. */
  const closing = new AbortController();
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

  /** The address to connect to, checked again at most a minute ago (per host and port: PUSH_ALLOWED_HOSTS may name a port). */
  async function addressOf(url: URL): Promise<string> {
    const known = resolved.get(url.host);
    if (known && Date.now() - known.at < 60_000) return known.addresses[0] as string;
    const addresses = await pushGuard.resolveAllowed(url.hostname, pushPolicy(config, url));
    resolved.set(url.host, { addresses, at: Date.now() });
    return addresses[0] as string;
  }

  async function send(target: PushTarget, payload: string, eventId: number, keys: VapidKeys): Promise<PushAnswer> {
    const url = new URL(target.endpoint);
    let address: string;
    try {
      address = await addressOf(url);
    } catch {
      // Unknown now, or moved to a private address: not sent; the caller retries later.
      return { status: 0, retryAfter: null, problem: 'its host is unknown or not allowed now' };
    }
    // Without vapidDetails web-push encrypts only; the signed header is added here (authorizationFor).
    const details = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
      TTL: TTL_SECONDS,
      topic: `event${eventId}`,
      urgency: 'normal',
      contentEncoding: 'aes128gcm',
    });
    return new Promise<PushAnswer>((resolve) => {
      const deadline = AbortSignal.timeout(deadlineMs);
      // Over the whole exchange, not socket inactivity: a byte every few seconds does not extend it.
      const signal = AbortSignal.any([deadline, closing.signal]);
      const failed = (problem: string) => {
        const why = deadline.aborted ? `no full answer within ${deadlineMs} ms` : closing.signal.aborted ? STOPPING : problem;
        resolve({ status: 0, retryAfter: null, problem: why });
      };
      const headers = { ...(details.headers as Record<string, string | number>), Authorization: authorizationFor(url.origin, keys) };
      const attempt = (again: boolean) => {
        const req = https.request(url, { method: 'POST', agent, lookup: pinnedLookup(address), headers, signal }, (res) => {
          res.resume();
          const retry = Number(res.headers['retry-after']);
          res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: Number.isFinite(retry) && retry >= 0 ? retry : null }));
          res.on('error', () => failed('the answer broke off'));
          res.on('close', () => failed('the answer broke off'));
        });
        req.on('error', (error: NodeJS.ErrnoException) => {
          // A kept-alive connection the push service closed just as it was reused: sent again once on a new
          // one (the Node documentation's advice; the same Topic makes a double harmless).
          if (again && req.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE') && !signal.aborted) attempt(false);
          else failed(`no answer (${error.code ?? error.message})`);
        });
        req.end(details.body);
      };
      attempt(true);
    });
  }

  return {
    send,
    close: () => {
      closing.abort();
      agent.destroy();
    },
  };
}

export type PushSender = ReturnType<typeof createPushSender>;
