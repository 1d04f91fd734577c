import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import ece from 'http_ece';

/**
 * A real Web Push service for tests and the bench, on 127.0.0.1 over HTTPS: it checks each request
 * as a push service does (the VAPID JWT signed ES256 by the key in the header, its `aud` and `sub`,
 * the aes128gcm body decrypted with the subscriber's keys) and answers what the test asks.
 */

/** A self-signed certificate for 127.0.0.1 in `dir` (openssl): cert.pem to trust with NODE_EXTRA_CA_CERTS, key.pem. */
export function makeTestCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/**
 * 'hang': never answers. 'trickle': answers 201 and then one byte every TRICKLE_MS without ever
 * finishing (a sender that only watches for an idle socket waits forever).
 */
export type Answer = 201 | 404 | 410 | 429 | 500 | 'hang' | 'trickle';

const TRICKLE_MS = 2000;

export type Received = {
  subscriber: string;
  status: number | 'hang' | 'trickle';
  topic: string | null;
  urgency: string | null;
  ttl: string | null;
  /** The decrypted message, parsed as JSON. */
  message: { id: number; kind: string; title: string; body: string; url: string };
  jwt: { aud: string; sub: string; exp: number };
  at: number;
};

type Subscriber = { id: string; ecdh: ECDH; auth: Buffer; answers: Answer[] };

export type PushService = {
  origin: string;
  /** A new browser: its subscription, as PushSubscription.toJSON() gives it. */
  subscribe(): { endpoint: string; keys: { p256dh: string; auth: string } };
  /** What the next requests to this endpoint get (then 201). */
  answer(endpoint: string, ...answers: Answer[]): void;
  /** Every request that passed the checks, in order of arrival. */
  received: Received[];
  /** Requests refused by the checks (bad JWT, bad body), with why. */
  refused: string[];
  /** TLS connections opened to it so far (a sender that keeps connections alive opens few). */
  readonly connections: number;
  /** Resolves once `n` requests have arrived (checked or refused), or rejects after `timeoutMs`. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

const b64 = (value: string) => Buffer.from(value, 'base64url');

/** Checks `vapid t=<jwt>, k=<key>`: ES256 signature by k, aud = the push service's origin, sub mailto:/https:, exp within 24 h. */
function checkVapid(header: string | undefined, origin: string, now: number): { aud: string; sub: string; exp: number } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`Authorization is not vapid t=..., k=...: ${header ?? '(none)'}`);
  const [head, body, signature] = match[1].split('.');
  if (!head || !body || !signature) throw new Error('the JWT has not three parts');
  const alg = (JSON.parse(b64(head).toString()) as { alg?: string }).alg;
  if (alg !== 'ES256') throw new Error(`JWT alg ${alg ?? '(none)'}`);
  const point = b64(match[2]);
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${head}.${body}`), { key, dsaEncoding: 'ieee-p1363' }, b64(signature))) throw new Error('the JWT signature does not verify');
  const claims = JSON.parse(b64(body).toString()) as { aud?: string; sub?: string; exp?: number };
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud ?? '(none)'} is not ${origin}`);
  if (!claims.sub || !/^(mailto:|https:)/.test(claims.sub)) throw new Error(`sub ${claims.sub ?? '(none)'}`);
  if (typeof claims.exp !== 'number' || claims.exp * 1000 < now || claims.exp * 1000 > now + 24 * 3600_000 + 60_000) throw new Error(`exp ${claims.exp ?? '(none)'}`);
  return { aud: claims.aud, sub: claims.sub, exp: claims.exp };
}

export async function startPushService(tls: { cert: string; key: string }): Promise<PushService> {
  const subscribers = new Map<string, Subscriber>();
  const received: Received[] = [];
  const refused: string[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const hanging = new Set<ServerResponse>();
  const trickles = new Set<NodeJS.Timeout>();
  let origin = '';
  const arrived = () => {
    const count = received.length + refused.length;
    for (const w of waiters.splice(0)) if (count >= w.n) w.resolve();
    else waiters.push(w);
  };

  const server = https.createServer({ cert: fs.readFileSync(tls.cert), key: fs.readFileSync(tls.key) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = /^\/push\/([a-f0-9]+)$/.exec(req.url ?? '')?.[1];
      const subscriber = id ? subscribers.get(id) : undefined;
      if (req.method !== 'POST' || !subscriber) {
        res.writeHead(404).end();
        return;
      }
      try {
        const jwt = checkVapid(req.headers.authorization, origin, Date.now());
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${req.headers['content-encoding'] ?? '(none)'}`);
        if (!req.headers.ttl) throw new Error('no TTL header');
        const plain = ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: subscriber.ecdh, authSecret: subscriber.auth.toString('base64url') });
        const answer = subscriber.answers.shift() ?? 201;
        received.push({
          subscriber: subscriber.id,
          status: answer,
          topic: (req.headers.topic as string | undefined) ?? null,
          urgency: (req.headers.urgency as string | undefined) ?? null,
          ttl: (req.headers.ttl as string | undefined) ?? null,
          message: JSON.parse(plain.toString('utf8')) as Received['message'],
          jwt,
          at: Date.now(),
        });
        if (answer === 'hang') hanging.add(res);
        else if (answer === 'trickle') {
          hanging.add(res);
          res.writeHead(201, { 'content-type': 'text/plain' });
          res.write('.');
          const timer = setInterval(() => res.write('.'), TRICKLE_MS);
          trickles.add(timer);
          res.on('close', () => (clearInterval(timer), trickles.delete(timer)));
        } else res.writeHead(answer, answer === 429 ? { 'retry-after': '1' } : {}).end();
      } catch (error) {
        refused.push(error instanceof Error ? error.message : String(error));
        res.writeHead(400).end();
      }
      arrived();
    });
  });
  let connections = 0;
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    refused,
    get connections() {
      return connections;
    },
    subscribe() {
      const id = randomBytes(8).toString('hex');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      subscribers.set(id, { id, ecdh, auth, answers: [] });
      return { endpoint: `${origin}/push/${id}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
    },
    answer(endpoint, ...answers) {
      const id = endpoint.split('/').pop() ?? '';
      subscribers.get(id)?.answers.push(...answers);
    },
    waitFor(n, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        if (received.length + refused.length >= n) return resolve();
        const timer = setTimeout(() => reject(new Error(`push service: ${received.length + refused.length} of ${n} requests arrived (${refused.join('; ')})`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    async close() {
      for (const timer of trickles) clearInterval(timer);
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
