import pg from 'pg';
import type { SessionStore } from './sessions.ts';

/** The channel the database triggers (migration 20261123_auth_session_events) notify on. */
export const SESSION_CHANNEL = 'site_sessions';

/**
 * Several server processes on one PostgreSQL each keep a cache of sessions and accounts. Triggers
 * on `users` (level, name, deletion) and `sessions` (deletion: logout, expiry) NOTIFY at commit, and
 * every process LISTENs here and drops the entries named, so a level change or logout made through
 * one process (or `npm run user`) applies to the others as soon as the notification reaches them:
 * milliseconds after the commit. A request another process serves within that moment may still get
 * the old answer from its cache (measured: 1 in 200 to 400 immediate re-asks on a busy 2-core
 * machine; test/instances.test.ts waits for it, bounded). While the listening
 * connection is down the cache is not trusted at all (every request reads the database) until it is
 * back.
 */
export function listenForSessionChanges(
  url: string,
  sessions: SessionStore,
  log: { warn(obj: unknown, msg: string): void },
): { ready: Promise<void>; stop(): Promise<void> } {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let firstReady!: () => void;
  const ready = new Promise<void>((resolve) => (firstReady = resolve));

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on('notification', (message) => {
      if (message.channel === SESSION_CHANNEL && message.payload) sessions.applyChange(message.payload);
    });
    const lost = (err?: unknown) => {
      if (client !== c) return;
      client = undefined;
      sessions.setCacheTrusted(false);
      if (stopped) return;
      if (err) log.warn({ err }, 'session change listener lost its connection; not caching sessions until it is back');
      c.end().catch(() => {});
      retry = setTimeout(() => void connect().catch(lost), 1000);
      retry.unref();
    };
    c.on('error', lost);
    c.on('end', () => lost());
    await c.connect();
    await c.query(`LISTEN ${SESSION_CHANNEL}`);
    // Changes made while not listening were missed: start from an empty cache.
    sessions.clearCache();
    sessions.setCacheTrusted(true);
    firstReady();
  };

  sessions.setCacheTrusted(false);
  void connect().catch((err: unknown) => {
    log.warn({ err }, 'session change listener could not connect; retrying');
    retry = setTimeout(() => void connect().catch(() => {}), 1000);
    retry.unref();
  });

  return {
    ready,
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
