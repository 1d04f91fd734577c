import net from 'node:net';
import type { GameServerStatus } from '@site/contracts';

/** Opens a TCP connection; resolves when connected, rejects with the socket's error. */
export type Dial = (host: string, port: number, signal: AbortSignal) => Promise<void>;

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

/**
 * Other (TCP): Online when the port accepts a connection. The dial is also raced against the timer,
 * so a dial that ignores its signal cannot hold the page.
 */
export async function tcpStatus(host: string, port: number, options: { timeoutMs?: number; dial?: Dial } = {}): Promise<GameServerStatus> {
  const { timeoutMs = 1000, dial = tcpDial } = options;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<GameServerStatus>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve('Unknown');
    }, timeoutMs);
  });
  const probe = dial(host, port, controller.signal).then(
    (): GameServerStatus => 'Online',
    (error: unknown): GameServerStatus => (controller.signal.aborted ? 'Unknown' : statusOf(error)),
  );
  try {
    return await Promise.race([probe, late]);
  } finally {
    clearTimeout(timer);
  }
}
