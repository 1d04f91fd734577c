import pg from 'pg';

/**
 * What one channel's listener does: `onNotify` with each notification's payload, and
 * `onListening(false)` whenever the connection is lost (caches fed by the channel must not be trusted:
 * changes may be missed), `onListening(true)` once it listens again (start from an empty cache).
 */
export type ChannelListener = {
  channel: string;
  onNotify(payload: string): void;
  onListening(listening: boolean): void;
};

export type Listening = { ready: Promise<void>; stop(): Promise<void> };

/**
 * Several server processes on one PostgreSQL each keep caches in memory. Triggers NOTIFY at commit,
 * and every process LISTENs on one connection of its own for every channel named here, so a change
 * made through one process (or by hand in SQL, or `npm run user`) reaches the others as soon as the
 * notification does: milliseconds after the commit. While the connection is down the listeners are
 * told so, and it reconnects every second.
 */
export function listenToChannels(url: string, listeners: readonly ChannelListener[], log: { warn(obj: unknown, msg: string): void }): Listening {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let failing = false;
  let firstReady!: () => void;
  const ready = new Promise<void>((resolve) => (firstReady = resolve));
  const byChannel = new Map(listeners.map((l) => [l.channel, l]));
  const tell = (listening: boolean) => {
    for (const l of listeners) l.onListening(listening);
  };

  /** Every failure (the first connection, a LISTEN, a dropped connection) ends here and tries again in a second. */
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    client = c;
    const lost = (err?: unknown) => {
      if (client !== c) return;
      client = undefined;
      tell(false);
      c.end().catch(() => {});
      if (stopped) return;
      // Said once per outage, not once a second.
      if (err && !failing) log.warn({ err }, 'change listener lost its connection; not trusting caches until it is back');
      failing = true;
      retry = setTimeout(() => void connect(), 1000);
      retry.unref();
    };
    c.on('notification', (message) => byChannel.get(message.channel)?.onNotify(message.payload ?? ''));
    c.on('error', lost);
    c.on('end', () => lost());
    try {
      await c.connect();
      for (const channel of byChannel.keys()) await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      lost(err);
      return;
    }
    if (client !== c) return;
    failing = false;
    // Changes made while not listening were missed: the listeners start from empty caches.
    tell(true);
    firstReady();
  };

  tell(false);
  void connect();

  return {
    ready,
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      tell(false);
      await c?.end().catch(() => {});
    },
  };
}

/** The same listeners on an embedded PGlite, which delivers its own notifications in process. */
export async function listenInProcess(
  listen: (channel: string, onNotify: (payload: string) => void) => Promise<() => Promise<void>>,
  listeners: readonly ChannelListener[],
): Promise<Listening> {
  const stops = await Promise.all(listeners.map((l) => listen(l.channel, (payload) => l.onNotify(payload))));
  for (const l of listeners) l.onListening(true);
  return {
    ready: Promise.resolve(),
    async stop() {
      for (const l of listeners) l.onListening(false);
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
