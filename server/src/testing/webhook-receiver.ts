import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A receiver of webhooks for tests, on 127.0.0.1 over HTTP: it keeps every request (headers and the
 * raw body, to verify the signature as a receiver does) and answers what the test asks, in turn:
 * a status, 'hang' (never answers), 'redirect' (302 to another path), or 'huge' (200 and 1 MB).
 */
export type ReceiverAnswer = number | 'hang' | 'redirect' | 'huge';

export type ReceivedHook = { path: string; headers: Record<string, string>; body: string; answered: ReceiverAnswer };

export type WebhookReceiver = {
  url: string;
  received: ReceivedHook[];
  /** The answers to the next requests, in order; after them, 200. */
  answer(...answers: ReceiverAnswer[]): void;
  /** Resolves once `count` requests arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const queue: ReceiverAnswer[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answered = queue.shift() ?? 200;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      received.push({ path: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      if (answered === 'hang') {
        hanging.add(res);
        return;
      }
      if (answered === 'redirect') {
        res.writeHead(302, { location: '/elsewhere' }).end();
        return;
      }
      if (answered === 'huge') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(Buffer.alloc(1024 * 1024, 'x'));
        return;
      }
      res.writeHead(answered, { 'content-type': 'text/plain' }).end(`answered ${answered}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (...answers) => void queue.push(...answers),
    async waitFor(count, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`the receiver got ${received.length} requests, not ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
