import net from 'node:net';
import type { GameServerStatus } from '@site/contracts';

/** Opens a TCP connection; resolves when connected, rejects with the socket's error. */
export type Dial = (host: string, port: number, signal: AbortSignal) => Promise<void>;

export type StatusProbe = {
  /** The status of each port, probed in parallel; never takes much longer than the timeout. */
  statuses(ports: readonly number[]): Promise<Map<number, GameServerStatus>>;
  /** Forget cached answers (after a server is added, moved or removed). */
  forget(port?: number): void;
};

export type ProbeOptions = {
  host: string;
  /** How long one connect may take before the answer is Unknown. */
  timeoutMs?: number;
  /** How long an answer is reused: the page polling, or many members opening it, cost one probe. */
  ttlMs?: number;
  dial?: Dial;
  now?: () => number;
};

export const tcpDial: Dial = (host, port, signal) =>
  new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const done = (error?: Error) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const onAbort = () => done(new Error('timed out'));
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => done());
    socket.once('error', (error) => done(error));
  });

/** Refused means the host answered and nothing listens there; anything else (time-out, no route) is not knowing. */
function statusOf(error: unknown): GameServerStatus {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED' ? 'Offline' : 'Unknown';
}

export function createStatusProbe(options: ProbeOptions): StatusProbe {
  const { host, timeoutMs = 1000, ttlMs = 5000, dial = tcpDial, now = Date.now } = options;
  /** Settled answers and probes in flight alike, so concurrent page loads share one connect per port. */
  const cache = new Map<number, { at: number; status: Promise<GameServerStatus> }>();

  async function probe(port: number): Promise<GameServerStatus> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      await dial(host, port, controller.signal);
      return 'Online';
    } catch (error) {
      return controller.signal.aborted ? 'Unknown' : statusOf(error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The dial is also raced against the timer, so a dial that ignores its signal cannot hold the page. */
  function bounded(port: number): Promise<GameServerStatus> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<GameServerStatus>((resolve) => {
      timer = setTimeout(() => resolve('Unknown'), timeoutMs + 50);
    });
    return Promise.race([probe(port), late]).finally(() => clearTimeout(timer));
  }

  return {
    async statuses(ports) {
      const at = now();
      const answers = ports.map((port) => {
        const hit = cache.get(port);
        if (hit && at - hit.at < ttlMs) return hit.status;
        const status = bounded(port);
        cache.set(port, { at, status });
        return status;
      });
      const settled = await Promise.all(answers);
      return new Map(ports.map((port, i) => [port, settled[i] ?? 'Unknown']));
    },
    forget(port) {
      if (port === undefined) cache.clear();
      else cache.delete(port);
    },
  };
}
