import http from 'node:http';
import type { AddressInfo } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config, TrustProxy } from '../config.ts';

/** Whether the peer at `address`, `hop` proxies away from the server, is a proxy TRUST_PROXY believes. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** TRUST_PROXY as one function, for Fastify (client address, https) and for `servedPort` alike. */
export function proxyTrust(trust: TrustProxy): ProxyTrust {
  if (trust === true) return () => true;
  if (trust === false) return () => false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return proxyAddr.compile(trust);
}

const compiled = new WeakMap<Config, ProxyTrust>();

/** The config's TRUST_PROXY compiled once: Fastify's trust function (app.ts) and `servedPort`'s are this one. */
export function configTrust(config: Config): ProxyTrust {
  let trust = compiled.get(config);
  if (!trust) compiled.set(config, (trust = proxyTrust(config.trustProxy)));
  return trust;
}

/** The port whose rules (`alsoOnPort`) the second listener (EXTRA_PORT) serves, whatever its own number. */
export const OPEN_PAGES_PORT = 8443;

/** Connections that arrived on a second listener (EXTRA_PORT). */
const extraSockets = new WeakSet<object>();

/**
 * The port a request was served on, which rules with `alsoOnPort` (8443) read. From a proxy
 * TRUST_PROXY trusts: the port it says it received the request on (X-Forwarded-Port, its last entry:
 * the one the nearest proxy wrote). Otherwise the listener the connection arrived on: EXTRA_PORT's
 * counts as 8443 whatever its number (a proxy forwarding its own 8443 to EXTRA_PORT=9443 needs nothing
 * more), PORT's is its local port. Never the Host header nor an untrusted peer's X-Forwarded-*: anyone
 * can write those. Undefined without a socket (inject in tests).
 */
export function servedPort(req: FastifyRequest, config: Config): number | undefined {
  const socket = req.raw.socket as { localPort?: number; remoteAddress?: string } | undefined;
  const forwarded = req.headers['x-forwarded-port'];
  if (forwarded !== undefined && socket?.remoteAddress) {
    if (configTrust(config)(socket.remoteAddress, 0)) {
      const value = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded).split(',').pop()?.trim() ?? '';
      if (/^\d{1,5}$/.test(value)) return Number(value);
    }
  }
  if (socket && extraSockets.has(socket)) return OPEN_PAGES_PORT;
  return socket?.localPort;
}

/** The second listeners of an app, closed with it (see `closeExtraListeners`, called from app.ts). */
const extras = new WeakMap<FastifyInstance, http.Server[]>();

/**
 * Listens on `port` and, when `extraPort` is set, on that port too: a plain Node server handing every
 * request to the same Fastify routing (hooks, guards, routes, limits). Returns both addresses.
 */
export async function listen(app: FastifyInstance, opts: { port: number; host: string; extraPort: number | null }): Promise<string[]> {
  const main = await app.listen({ port: opts.port, host: opts.host });
  if (opts.extraPort === null) return [main];
  const base = app.server;
  const server = http.createServer(
    { requestTimeout: base.requestTimeout, headersTimeout: base.headersTimeout, connectionsCheckingInterval: 1000 },
    (req, res) => app.routing(req, res),
  );
  server.on('connection', (socket) => extraSockets.add(socket));
  server.timeout = base.timeout;
  server.keepAliveTimeout = base.keepAliveTimeout;
  // As Fastify answers a malformed request on its own server: 400 if the socket can still take it.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.extraPort ?? 0, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  extras.set(app, [...(extras.get(app) ?? []), server]);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return [main, `http://${host}:${address.port}`];
}

/**
 * Stops the second listeners taking connections and closes their idle ones (as Fastify does for its
 * own on close); the promise settles once their requests in flight are done.
 */
export function closeExtraListeners(app: FastifyInstance): Promise<void> {
  return Promise.all(
    (extras.get(app) ?? []).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        }),
    ),
  ).then(() => undefined);
}

/** At the shutdown time limit: every connection of the second listeners too. */
export function dropExtraConnections(app: FastifyInstance): void {
  for (const server of extras.get(app) ?? []) server.closeAllConnections();
}
