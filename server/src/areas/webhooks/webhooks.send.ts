import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { webhookMessages as m } from '@site/contracts';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { addressGuard } from '../../net/address-guard.ts';
import { hostListed } from '../../net/allowed-hosts.ts';
import { pinnedLookup } from '../../net/fetch-page.ts';

/**
 * A webhook's address is a URL a member gives us and the server will POST to: only hosts the owner
 * lists in WEBHOOK_ALLOWED_HOSTS (Home Assistant's LAN address, typically a private one) are taken,
 * through the same guard as recipe links and push endpoints (parsed, resolved once, the connection
 * made to exactly the address resolved).
 */
export const webhookGuard = addressGuard({ notUrl: m.badUrl, notHttp: m.notHttp, unknownHost: m.unknownHost, privateHost: m.privateHost });

/** The one refusal of a host outside the list, else null: checked at creation and again before each send. */
function notListed(config: Config, url: URL): string | null {
  return hostListed(config.webhooks.allowedHosts, url) ? null : m.hostNotAllowed(url.host);
}

/** The address checked: http(s), no credentials in it, a listed host that resolves. */
export async function checkTarget(config: Config, raw: string): Promise<URL> {
  const url = webhookGuard.parseUrl(raw);
  if (url.username !== '' || url.password !== '') throw new AppError('BAD_REQUEST', m.noCredentials);
  const refusal = notListed(config, url);
  if (refusal) throw new AppError('BAD_REQUEST', refusal);
  // A listed host may be on a private address: naming it is the owner's permission.
  await webhookGuard.resolveAllowed(url.hostname, { allowPrivate: true });
  return url;
}

/** The deadline over one whole request: connecting, sending, and the answer's last byte. */
export const DEADLINE_MS = 10_000;
/** The most of an answer read: past it the connection is closed and the status kept. */
export const MAX_ANSWER_BYTES = 64 * 1024;
/** The problem of a send cut short because this server is stopping (tried again after the restart). */
export const STOPPING = 'the server stopped before the answer';

/** What came of one attempt: the status (0 when none came) and, for a failure without one, why. */
export type WebhookAnswer = { status: number; problem: string | null; durationMs: number };

export type WebhookMessage = { id: string; payload: string };

/** The secret as the member got it: `whsec_` + base64 of the key. */
export const secretText = (key: string) => `whsec_${key}`;

/**
 * Sends Standard Webhooks messages: `webhook-id` (the same at every try), `webhook-timestamp` (this
 * try's, in seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`,
 * signed by the `standardwebhooks` package). Redirects are not followed (a 3xx is the answer).
 */
export function createWebhookSender(config: Config, options: { deadlineMs?: number } = {}) {
  const deadlineMs = options.deadlineMs ?? DEADLINE_MS;
  const closing = new AbortController();

  async function send(target: { url: string; secret: string }, message: WebhookMessage): Promise<WebhookAnswer> {
    const started = performance.now();
    const result = (status: number, problem: string | null): WebhookAnswer => ({ status, problem, durationMs: Math.round(performance.now() - started) });
    const url = new URL(target.url);
    const refusal = notListed(config, url);
    if (refusal) return result(0, refusal);
    let address: string;
    try {
      [address = ''] = await webhookGuard.resolveAllowed(url.hostname, { allowPrivate: true });
    } catch (error) {
      return result(0, error instanceof Error ? error.message : String(error));
    }
    const timestamp = new Date();
    const signature = new Webhook(secretText(target.secret)).sign(message.id, timestamp, message.payload);
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(message.payload)),
      'user-agent': 'family-site-webhooks/1',
      'webhook-id': message.id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    };
    return new Promise<WebhookAnswer>((resolve) => {
      const deadline = AbortSignal.timeout(deadlineMs);
      const signal = AbortSignal.any([deadline, closing.signal]);
      let settled = false;
      const finish = (status: number, problem: string | null) => {
        if (settled) return;
        settled = true;
        resolve(result(status, problem));
      };
      const failed = (problem: string) =>
        finish(0, deadline.aborted ? `no full answer within ${deadlineMs / 1000} s` : closing.signal.aborted ? STOPPING : problem);
      const client = url.protocol === 'https:' ? https : http;
      const req = client.request(url, { method: 'POST', agent: false, lookup: pinnedLookup(address), headers, signal }, (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) {
            // Enough: the status is the answer; the rest is not read.
            finish(status, null);
            res.destroy();
          }
        });
        res.on('end', () => finish(status, null));
        res.on('error', () => failed('the answer broke off'));
        res.on('close', () => failed('the answer broke off'));
      });
      req.on('error', (error: NodeJS.ErrnoException) => failed(`no answer (${error.code ?? error.message})`));
      req.end(message.payload);
    });
  }

  return { send, close: () => closing.abort() };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
