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

/** The one read buffer of each upstream connection. */
const RELAY_BUFFER = 64 * 1024;

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

  /**
   * Connects to `address` and relays everything it sends to `client` as raw bytes, counted, with no
   * HTTP parsing and no allocation per chunk: every read lands in one buffer of this connection,
   * and reading pauses while a write of it is still queued (a 64 KiB buffer per read made the
   * garbage collector run every few dozen megabytes). `opened` writes what goes upstream first.
   */
  const relay = (session: Session, client: Duplex, address: string, port: number, opened: (upstream: net.Socket) => void) => {
    const buffer = Buffer.allocUnsafe(RELAY_BUFFER);
    let established = false;
    const upstream = net.connect({
      host: address,
      port,
      onread: {
        buffer,
        callback: (n: number) => {
          count(session, n);
          client.write(buffer.subarray(0, n));
          if (client.writableLength === 0) return true;
          // The write still holds the buffer: read again once it is out.
          client.once('drain', () => upstream.resume());
          return false;
        },
      },
    });
    track(session, upstream);
    upstream.on('connect', () => {
      established = true;
      opened(upstream);
    });
    // A host that cuts its answer short cuts yt-dlp's too (it retries at once instead of waiting for
    // its socket timeout); one that fails before answering gets a 502.
    upstream.on('end', () => client.end());
    upstream.on('error', () => (!established && client.writable ? client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n') : client.destroy()));
    // yt-dlp often reads only the headers of a media answer and hangs up: stop fetching then.
    client.on('close', () => upstream.destroy());
  };

  // Connections whose answer is being relayed raw. Its framing is the host's, so a second request on
  // one (a client keeping the connection alive while the host ignored `connection: close`) would
  // get bytes of two answers mixed: the connection is closed instead, and the client opens another.
  const relayed = new WeakSet<Duplex>();

  // Plain HTTP: yt-dlp asks for an absolute URL; the request goes on with the path only, the answer
  // comes back byte for byte (its own framing, chunked or not), and the connection closes after it.
  const server = http.createServer((req, res) => {
    if (relayed.has(req.socket)) return void req.socket.destroy();
    const session = sessionOf(req);
    if (!session) return void res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
    track(session, req.socket);
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400).end();
    }
    // A chunked request body would lose its framing here; yt-dlp sends bodies with a length.
    if (target.protocol !== 'http:' || req.headers['transfer-encoding'] !== undefined) return void res.writeHead(400).end();
    void allowed(session, target.hostname).then((address) => {
      if (!address) return void res.writeHead(403).end();
      const client = req.socket;
      relayed.add(client);
      client.on('error', () => client.destroy());
      relay(session, client, address, Number(target.port || 80), (upstream) => {
        let head = `${req.method ?? 'GET'} ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\nconnection: close\r\n`;
        for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
          const name = req.rawHeaders[i] as string;
          const lower = name.toLowerCase();
          if (lower !== 'host' && !HOP_BY_HOP.has(lower)) head += `${name}: ${req.rawHeaders[i + 1] as string}\r\n`;
        }
        upstream.write(`${head}\r\n`);
        req.pipe(upstream, { end: false });
      });
    });
  });

  // HTTPS: a tunnel to the checked address; the bytes in it are yt-dlp's TLS.
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
      relay(session, client, address, Number(target.port || 443), (upstream) => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        client.pipe(upstream);
      });
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
