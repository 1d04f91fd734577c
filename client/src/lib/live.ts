import { useEffect } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { LIVE_EVENTS, LIVE_PATH, isLiveArea, type LiveArea } from '@site/contracts/live';
import { afterLoadWhenIdle } from './idle.ts';
import { liveReconnected } from './live-reconnect.ts';
import { checkReachable, reportReachable } from './online.ts';

export { onLiveReconnect } from './live-reconnect.ts';

/**
 * Live pages. A page names the areas it shows (`useLive(['house'])`); while any such page is open the
 * tab follows the server's change feed (`GET /events`, Server-Sent Events), and each change turns into
 * a react-query invalidation of that area's queries, so the page reads them again through its usual
 * calls (never a second copy of the data). After a dropped connection it reconnects by itself and
 * reads every live area again, since changes may have been missed meanwhile. The connection opens
 * once the page has loaded and the browser is idle, and then reads the live areas once more.
 *
 * The tabs of one browser share one connection (a browser opens at most 6 per site over HTTP/1.1):
 * the tab holding the Web Lock `site-live` connects and passes each event to the others over a
 * BroadcastChannel. When that tab closes, the next one waiting takes the lock and connects.
 */

/** The query keys an area's change makes stale (tRPC keys start with the procedure's path). */
const STALE: Record<LiveArea, QueryKey[]> = {
  house: [[['house']]],
  todo: [[['todo']]],
  pictures: [[['pictures', 'pendingCount']], [['pictures', 'pending']]],
  // Hearts and comments of any picture: each open viewer reads its own picture's again.
  pictureSocial: [[['pictures', 'social']]],
  albums: [[['albums']]],
  plan: [[['plan']]],
  chores: [[['chores']]],
  gameServers: [[['gameServers']]],
  accounts: [[['admin', 'waitingCount']], [['admin', 'users']]],
  notifications: [[['notifications', 'unreadCount']], [['notifications', 'list']]],
  account: [[['auth', 'status']]],
};

/** Reconnect delays after a refused or failed connection (the browser retries a dropped one itself). */
const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
/** A page left for another keeps the connection this long, so moving between live pages does not reconnect. */
const LINGER_MS = 5_000;
const LOCK = 'site-live';

type Message = { type: 'change'; area: LiveArea } | { type: 'resync' } | { type: 'reconnect' } | { type: 'lost' };

const watched = new Map<LiveArea, number>();
const clients = new Set<QueryClient>();
let channel: BroadcastChannel | null = null;
/** Ends this tab's part in the connection (its own EventSource, or its wait for the lock). */
let stopConnection: (() => void) | null = null;
let lingering: ReturnType<typeof setTimeout> | undefined;
let lastAuth: string | undefined;

/** Areas being read again now, and those changed again meanwhile (read once more when that read ends). */
const reading = new Set<LiveArea>();
const changedAgain = new Set<LiveArea>();

/**
 * Marks the queries of `areas` (default: every watched one) stale; react-query reads the shown ones
 * again. One read per area at a time: a change told while it runs (it may have started before that
 * commit) waits for it and starts one more, so a burst of changes (an import of a hundred pictures)
 * is a few reads, not a hundred reads each cancelling the last before it could answer.
 */
function invalidate(areas: Iterable<LiveArea> = watched.keys()) {
  for (const area of areas) {
    if (!watched.has(area)) continue;
    if (reading.has(area)) {
      changedAgain.add(area);
      continue;
    }
    reading.add(area);
    const reads = STALE[area].flatMap((queryKey) => [...clients].map((client) => client.invalidateQueries({ queryKey })));
    void Promise.allSettled(reads).then(() => {
      reading.delete(area);
      if (changedAgain.delete(area)) invalidate([area]);
    });
  }
}

/** What this tab does with a message, whether it came from its own connection or another tab's. */
function apply(message: Message) {
  if (message.type === 'change') invalidate([message.area]);
  else if (message.type === 'resync') invalidate();
  else if (message.type === 'reconnect' && stopConnection) restart();
  // The stream dropped: the server may be gone; each tab checks at once (lib/online.ts) and says
  // "offline" if so, instead of looking normal until its next call.
  else if (message.type === 'lost') void checkReachable();
}

function share(message: Message) {
  channel?.postMessage(message);
  apply(message);
}

/**
 * Follows the feed over one EventSource until `stop` is called. Catch-up: every (re)connection after
 * the first asks every tab to read its live areas again.
 */
function follow(late: boolean): () => void {
  let source: EventSource | null = null;
  let opens = 0;
  let failures = 0;
  /** The server ended the last stream on purpose (its lifetime): not a drop, no reconnect hooks. */
  let planned = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const connect = () => {
    clearTimeout(retry);
    source?.close();
    const es = new EventSource(LIVE_PATH);
    source = es;
    es.addEventListener('ready', () => {
      failures = 0;
      // The server answered: the site is reachable (lib/online.ts), whatever the last call said.
      reportReachable(true);
      if (opens++ > 0) {
        share({ type: 'resync' });
        if (!planned) liveReconnected();
      } else if (late) {
        // The connection opened after the page's load and idle moment (startSoon): what the page
        // read before may have changed meanwhile, unseen; it reads its live areas once more.
        share({ type: 'resync' });
      }
      planned = false;
    });
    // Each stream has a lifetime; at its end the server says so: connect again now (not after the
    // `retry` wait) and, once connected, read every live area again (the `ready` above).
    es.addEventListener(LIVE_EVENTS.reconnect, () => {
      planned = true;
      connect();
    });
    es.addEventListener(LIVE_EVENTS.change, (event) => {
      const area = (JSON.parse((event as MessageEvent<string>).data) as { area?: unknown }).area;
      if (isLiveArea(area)) share({ type: 'change', area });
    });
    es.addEventListener(LIVE_EVENTS.resync, () => share({ type: 'resync' }));
    es.addEventListener('error', () => {
      if (!stopped && !planned) share({ type: 'lost' });
      // CONNECTING: the browser reconnects by itself. CLOSED: refused (429, 5xx) or unreachable; try again later.
      if (es.readyState !== EventSource.CLOSED || stopped) return;
      const delay = BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)];
      retry = setTimeout(connect, delay);
    });
  };
  const online = () => {
    if (!source || source.readyState === EventSource.CLOSED) connect();
  };
  connect();
  window.addEventListener('online', online);
  return () => {
    stopped = true;
    clearTimeout(retry);
    window.removeEventListener('online', online);
    source?.close();
    source = null;
  };
}

/**
 * The first connection waits for the browser's first idle moment after the load, this long at most:
 * a change made meanwhile shows at its first `ready` (the page reads again), so the wait is short.
 */
const CONNECT_WITHIN_MS = 500;

/** The connection asked for before the page's load and idle moment: cancels that wait. */
let cancelSoon: (() => void) | null = null;

/**
 * Connects once the page has loaded and the browser is idle (lib/idle.ts): the feed is not needed
 * to paint the page or answer its first taps, and its first `ready` reads the live areas again.
 */
function startSoon() {
  if (stopConnection || cancelSoon) return;
  let waited = false;
  let ran = false;
  const cancel = afterLoadWhenIdle(() => {
    ran = true;
    cancelSoon = null;
    if (watched.size > 0) start(waited);
  }, CONNECT_WITHIN_MS);
  waited = true;
  if (!ran) cancelSoon = cancel;
}

/**
 * Takes part in the shared connection: connects when this tab holds the lock, else waits for it.
 * `late`: the page asked for it a while ago; its first `ready` reads the live areas again.
 */
function start(late = false) {
  if (stopConnection) return;
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (typeof BroadcastChannel === 'undefined' || !locks) {
    stopConnection = follow(late);
    return;
  }
  channel = new BroadcastChannel(LOCK);
  channel.onmessage = (event: MessageEvent<Message>) => apply(event.data);
  const abort = new AbortController();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  locks
    .request(LOCK, { signal: abort.signal }, async () => {
      const stop = follow(late);
      await held;
      stop();
    })
    .catch(() => {});
  stopConnection = () => {
    abort.abort();
    release();
    channel?.close();
    channel = null;
  };
}

function stop() {
  cancelSoon?.();
  cancelSoon = null;
  stopConnection?.();
  stopConnection = null;
}

function restart() {
  stop();
  start();
}

/**
 * Signing in or out changes what the feed may tell this browser, and the connection carries the
 * cookie it was opened with: when the account changes, the tab holding the connection opens it again.
 */
function watchAccount(client: QueryClient): () => void {
  return client.getQueryCache().subscribe((event) => {
    const key = event.query.queryKey as unknown[];
    const path = key[0] as unknown[] | undefined;
    if (!Array.isArray(path) || path[0] !== 'auth' || path[1] !== 'status' || event.type !== 'updated') return;
    const data = event.query.state.data as { user?: unknown; level?: unknown } | undefined;
    if (!data) return;
    const auth = JSON.stringify([data.user, data.level]);
    const changed = lastAuth !== undefined && auth !== lastAuth;
    lastAuth = auth;
    if (changed && stopConnection) share({ type: 'reconnect' });
  });
}

const accountWatchers = new Map<QueryClient, () => void>();

/** Keeps the page's `areas` current while it is mounted. */
export function useLive(areas: readonly LiveArea[]): void {
  const client = useQueryClient();
  const key = areas.join(',');
  useEffect(() => {
    const mine = key.split(',').filter(isLiveArea);
    clients.add(client);
    if (!accountWatchers.has(client)) accountWatchers.set(client, watchAccount(client));
    for (const area of mine) watched.set(area, (watched.get(area) ?? 0) + 1);
    clearTimeout(lingering);
    startSoon();
    return () => {
      for (const area of mine) {
        const left = (watched.get(area) ?? 1) - 1;
        if (left > 0) watched.set(area, left);
        else watched.delete(area);
      }
      if (watched.size === 0) lingering = setTimeout(stop, LINGER_MS);
    };
  }, [client, key]);
}
