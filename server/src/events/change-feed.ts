import { isLiveArea, type LiveArea } from '@site/contracts';
import type { ChannelListener } from '../db/notifications.ts';

/** The channel the triggers of migration 20261127_live_change_triggers notify on. */
export const CHANGES_CHANNEL = 'site_changes';

/** One change: an area's data, for everyone who may read the area, or for one member only (`userId`). */
export type Change = { area: LiveArea; userId: number | null };

/** What the feed hands its subscribers: a change, or "changes may have been missed: read everything again". */
export type FeedMessage = { kind: 'change'; change: Change } | { kind: 'resync' };

/** A notification's payload, `<area>` or `<area>:<user id>`, as a change; null for anything else. */
export function parseChange(payload: string): Change | null {
  const [area, scope, ...rest] = payload.split(':');
  if (rest.length > 0 || !isLiveArea(area)) return null;
  if (scope === undefined) return { area, userId: null };
  return /^[1-9][0-9]{0,9}$/.test(scope) ? { area, userId: Number(scope) } : null;
}

export type ChangeFeed = {
  /** Calls `onMessage` with every change from now on, until the returned function is called. */
  subscribe(onMessage: (message: FeedMessage) => void, onClose: () => void): () => void;
  /** How many subscribers there are now. */
  readonly size: number;
  /** Ends every subscription (the server is stopping): each `onClose` runs once. */
  closeAll(): void;
  /** What the database's notifications on CHANGES_CHANNEL do to the feed (server/src/watch-changes.ts). */
  readonly listener: ChannelListener;
};

type Subscriber = { onMessage: (message: FeedMessage) => void; onClose: () => void };

/**
 * The one change feed of a server process. Every write to a live area's tables fires a trigger that
 * NOTIFYs at commit (whichever process, the /api paths, the CLI or SQL by hand made it); each process
 * listens (db/notifications.ts: on PostgreSQL over a connection of its own, on PGlite in process) and
 * hands the change to its subscribers, the open `GET /events` streams, which filter it per viewer.
 * When the listening connection was lost, changes may have been missed: once it listens again every
 * subscriber is told to read everything again (`resync`).
 */
export function createChangeFeed(): ChangeFeed {
  const subscribers = new Set<Subscriber>();
  let wasListening = false;
  const send = (message: FeedMessage) => {
    for (const s of subscribers) s.onMessage(message);
  };
  return {
    subscribe(onMessage, onClose) {
      const subscriber = { onMessage, onClose };
      subscribers.add(subscriber);
      return () => void subscribers.delete(subscriber);
    },
    get size() {
      return subscribers.size;
    },
    closeAll() {
      const all = [...subscribers];
      subscribers.clear();
      for (const s of all) s.onClose();
    },
    listener: {
      channel: CHANGES_CHANNEL,
      onNotify(payload) {
        const change = parseChange(payload);
        if (change) send({ kind: 'change', change });
      },
      onListening(listening) {
        if (listening && !wasListening) send({ kind: 'resync' });
        wasListening = listening;
      },
    },
  };
}
