import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError } from '../../errors.ts';
import { resolveAllowed, type NetPolicy } from './ytdl.guard.ts';

/**
 * The one way out for yt-dlp: an HTTP proxy on 127.0.0.1 that every one of its connections goes
 * through (`--proxy`), page fetches, API calls, redirects and media alike. For each connection it
 * resolves the host itself, refuses private addresses (unless allowed), and connects to the very
 * address it checked, so a redirect to an internal address or a name that re-resolves to one
 * (DNS rebinding) never gets through. Each download has its own credentials in the proxy URL: the
 * proxy knows whose bytes it carries (the size limit), and nothing else on the machine can use it.
 */
export type Tunnel = {
  /** Bytes received from the outside for this download so far. */
  bytes: number;
  /** Set when a connection was refused: the reason, shown instead of yt-dlp's 'Forbidden'. */
  refusal: AppError | null;
  /** Called after each chunk; returning false cuts every connection of this download. */
  onBytes: (total: number) => boolean;
};

export type GuardProxy = {
  /** A proxy URL for one download, with credentials nobody else has. */
  open(onBytes: Tunnel['onBytes']): { url: string; tunnel: Tunnel; close(): void };
  close(): Promise<void>;
};

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

type Session = { tunnel: Tunnel; sockets: Set<Duplex> };

export async function startGuardProxy(policy: NetPolicy): Promise<GuardProxy> {
  const sessions = new Map<string, Session>();

  const sessionOf = (req: http.IncomingMessage): Session | undefined => {
    const auth = req.headers['proxy-authorization'];
    const match = typeof auth === 'string' ? /^Basic\s+(\S+)$/i.exec(auth) : null;
    if (!match?.[1]) return undefined;
    const user = Buffer.from(match[1], 'base64').toString('utf8').split(':', 1)[0] ?? '';
    return sessions.get(user);
  };

  const track = (session: Session, socket: Duplex) => {
    session.sockets.add(socket);
    socket.once('close', () => session.sockets.delete(socket));
  };

  const count = (session: Session, n: number) => {
    session.tunnel.bytes += n;
    if (!session.tunnel.onBytes(session.tunnel.bytes)) for (const s of session.sockets) s.destroy();
  };

  const allowed = async (session: Session, host: string): Promise<string | null> => {
    try {
      const addresses = await resolveAllowed(host, policy);
      return addresses[0] ?? null;
    } catch (error) {
      if (error instanceof AppError) session.tunnel.refusal ??= error;
      return null;
    }
  };

  const server = http.createServer((req, res) => {
    const session = sessionOf(req);
    if (!session) return void res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
    track(session, req.socket);
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400).end();
    }
    if (target.protocol !== 'http:') return void res.writeHead(400).end();
    void allowed(session, target.hostname).then((address) => {
      if (!address) return void res.writeHead(403).end();
      const headers: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
      headers.host = target.host;
      headers.connection = 'close';
      const upstream = http.request({
        host: address,
        port: target.port || 80,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
        setHost: false,
        agent: false,
      });
      upstream.once('socket', (socket) => track(session, socket));
      upstream.on('response', (answer) => {
        const out: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
        answer.on('data', (chunk: Buffer) => count(session, chunk.length));
        answer.pipe(res);
      });
      // yt-dlp often reads only the headers of a media answer and hangs up: stop fetching then.
      res.on('close', () => upstream.destroy());
      upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
      req.pipe(upstream);
    });
  });

  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => client.destroy());
    const session = sessionOf(req);
    if (!session) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
    track(session, client);
    let target: URL;
    try {
      target = new URL(`http://${req.url ?? ''}`);
    } catch {
      return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    }
    void allowed(session, target.hostname).then((address) => {
      if (!address) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      const upstream = net.connect({ host: address, port: Number(target.port || 443) });
      track(session, upstream);
      upstream.on('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.on('data', (chunk: Buffer) => count(session, chunk.length));
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => (client.writable ? client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n') : client.destroy()));
      client.on('close', () => upstream.destroy());
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;

  return {
    open(onBytes) {
      const user = randomBytes(16).toString('hex');
      const tunnel: Tunnel = { bytes: 0, refusal: null, onBytes };
      const session: Session = { tunnel, sockets: new Set() };
      sessions.set(user, session);
      return {
        url: `http://${user}:x@127.0.0.1:${port}`,
        tunnel,
        close() {
          sessions.delete(user);
          for (const s of session.sockets) s.destroy();
        },
      };
    },
    async close() {
      for (const session of sessions.values()) for (const s of session.sockets) s.destroy();
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
