import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * Lighthouse's mobile network ("Slow 4G", its default for mobile: lighthouse-core/config/constants.js
 * `throttling.mobileSlow4G`): 150 ms round trip, 1.6 Mbit/s down.
 */
export const LIGHTHOUSE_MOBILE = { rttMs: 150, downKbps: 1.6 * 1024 } as const;

export type ProxiedRequest = { path: string; status: number; bytes: number; startedAt: number; ms: number };

export type SlowNetwork = {
  /** The site through the slow network (another origin than the site itself: a browser's first visit). */
  readonly baseUrl: string;
  /** Every request answered, in the order they ended. */
  readonly requests: ProxiedRequest[];
  close: () => Promise<void>;
};

/**
 * A proxy in front of the site that behaves like a phone's network: each request waits one round trip
 * before the server sees it, and every response's bytes share one link of `downKbps` (two files at
 * once each get half). Bytes are counted as sent (brotli when the browser asked for it). Requests to
 * the live feed (/events) are passed on unthrottled and unlogged: they never end.
 */
export async function slowNetwork(target: string, network: { rttMs: number; downKbps: number } = LIGHTHOUSE_MOBILE): Promise<SlowNetwork> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const bytesPerMs = (network.downKbps * 1024) / 8 / 1000;
  /** When the link is next free (ms, Date.now()). */
  let linkFreeAt = 0;
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

  const server = http.createServer((req, res) => {
    const startedAt = Date.now();
    const url = req.url ?? '/';
    const live = url.startsWith('/events');
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => void forward());
    const forward = async () => {
      if (!live) await wait(network.rttMs);
      const upstream = http.request(new URL(url, target), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        let bytes = 0;
        // Each chunk goes out when the link has carried the ones before it (of every response); the end after the last.
        let sent = Promise.resolve();
        answer.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (live) {
            res.write(chunk);
            return;
          }
          const start = Math.max(Date.now(), linkFreeAt);
          linkFreeAt = start + chunk.length / bytesPerMs;
          const due = linkFreeAt;
          sent = sent.then(() => wait(due - Date.now())).then(() => void res.write(chunk));
        });
        answer.on('end', () => {
          void sent.then(() => {
            res.end();
            if (!live) requests.push({ path: url, status: answer.statusCode ?? 0, bytes, startedAt, ms: Date.now() - startedAt });
          });
        });
      });
      upstream.on('error', () => res.destroy());
      upstream.end(Buffer.concat(body));
    };
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
