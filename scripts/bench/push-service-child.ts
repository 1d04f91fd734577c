/**
 * The test push service (server/src/testing/push-service.ts) in a process of its own, for benches:
 * decrypting a thousand messages is work that, in the bench's own process, would delay the requests
 * the bench times and count against the server. The parent calls it over IPC (`pushServiceChild`).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { makeTestCertificate, startPushService, type PushService } from '@site/server/testing/push-service';

type Call = { id: number; method: 'subscribe' | 'count' | 'arrivals' | 'waitFor' | 'close'; args: number[] };
type Reply = { id: number; result?: unknown; error?: string };

/** What the parent sees of the push service in the child. */
export type RemotePushService = {
  cert: string;
  subscribe(): Promise<{ endpoint: string; keys: { p256dh: string; auth: string } }>;
  /** Requests that arrived so far: checked and refused. */
  count(): Promise<{ received: number; refused: number }>;
  /** Arrival times (Date.now() in the child) of the checked requests from index `from` on. */
  arrivals(from: number): Promise<number[]>;
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

/** Starts the push service in a child; its certificate is made in `dir` (trust it with NODE_EXTRA_CA_CERTS). */
export async function pushServiceChild(dir: string): Promise<RemotePushService> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child', dir], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let next = 0;
  const ready = new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`push service child ended (${code})`)));
    child.on('message', (message: Reply | { ready: string }) => {
      if ('ready' in message) return resolve(message.ready);
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.result);
    });
  });
  const cert = await ready;
  const call = <T>(method: Call['method'], ...args: number[]) =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, method, args } satisfies Call);
    });
  return {
    cert,
    subscribe: () => call('subscribe'),
    count: () => call('count'),
    arrivals: (from) => call('arrivals', from),
    waitFor: (n, timeoutMs = 10_000) => call('waitFor', n, timeoutMs),
    close: async () => {
      await call('close');
      child.disconnect();
    },
  };
}

async function serve(dir: string): Promise<void> {
  const tls = makeTestCertificate(dir);
  const push: PushService = await startPushService(tls);
  const handlers: Record<Call['method'], (...args: number[]) => unknown> = {
    subscribe: () => push.subscribe(),
    count: () => ({ received: push.received.length, refused: push.refused.length }),
    arrivals: (from = 0) => push.received.slice(from).map((r) => r.at),
    waitFor: (n = 0, timeoutMs) => push.waitFor(n, timeoutMs),
    close: () => push.close(),
  };
  process.on('message', (message: Call) => {
    void (async () => {
      try {
        process.send?.({ id: message.id, result: await handlers[message.method](...message.args) } satisfies Reply);
      } catch (e) {
        process.send?.({ id: message.id, error: e instanceof Error ? e.message : String(e) } satisfies Reply);
      }
    })();
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ ready: tls.cert });
}

if (process.argv[2] === '--child') await serve(process.argv[3] ?? '.');
