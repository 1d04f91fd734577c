import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/**
 * The offline write queue. A change a member makes while the browser has no network (or whose sending
 * fails on the network) waits here, in IndexedDB, until it can be sent; each carries an id made in the
 * browser (`clientId`), which the server applies once per account, so sending it twice (a lost answer,
 * two tabs) changes nothing the second time.
 *
 * Changes are kept per account (the signed-in name): on a shared phone, one person's waiting changes
 * are only ever sent by that person's session. They are sent in the order they were made, one sender
 * at a time across the browser's tabs (the Web Lock `site-offline-queue`), and each leaves the queue only
 * once the server has answered it: applied, or refused (a refusal is told to the member and dropped,
 * since sending it again would be refused again). A change that meets no server (offline, a server
 * restarting) stays and is tried again.
 */

/** The procedures the queue sends: the list pages' writes. */
export type QueueProcedure = 'house.add' | 'house.complete' | 'house.undo' | 'todo.add' | 'todo.update';
export type QueueArea = 'house' | 'todo';

export type QueuedChange = {
  clientId: string;
  /** The account that made it: the signed-in name, lower case (names are unique ignoring case). */
  account: string;
  procedure: QueueProcedure;
  /** The procedure's input, `clientId` included. */
  input: Record<string, unknown>;
  /** The task's text, for the page's "Waiting" row and for telling the member what became of it. */
  label: string;
  createdAt: number;
};

export type Outcome = { kind: 'applied'; result: unknown } | { kind: 'refused'; message: string };

interface QueueSchema extends DBSchema {
  changes: { key: number; value: QueuedChange & { seq?: number }; indexes: { account: string; clientId: string } };
}

const DB_NAME = 'site-offline-queue';
const LOCK = 'site-offline-queue';
const CHANNEL = 'site-offline-queue';

let dbPromise: Promise<IDBPDatabase<QueueSchema>> | null = null;

function database(): Promise<IDBPDatabase<QueueSchema>> {
  dbPromise ??= openDB<QueueSchema>(DB_NAME, 1, {
    upgrade(db) {
      // An increasing key keeps the order changes were made in; an account's index lists them in that order.
      const store = db.createObjectStore('changes', { keyPath: 'seq', autoIncrement: true });
      store.createIndex('account', 'account');
      store.createIndex('clientId', 'clientId', { unique: true });
    },
  });
  return dbPromise;
}

/** Closes the database so a test can start from an empty one. */
export async function closeQueueForTests(): Promise<void> {
  const db = await dbPromise;
  db?.close();
  dbPromise = null;
}

export function areaOf(procedure: QueueProcedure): QueueArea {
  return procedure.startsWith('house.') ? 'house' : 'todo';
}

/** A random (version 4) UUID; `crypto.randomUUID` exists only on HTTPS pages, getRandomValues everywhere. */
export function newClientId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// Who is told when the queue changes: this tab's listeners, and the other tabs over a BroadcastChannel.
const listeners = new Set<() => void>();
let channel: BroadcastChannel | null | undefined;

function broadcast(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
    channel?.addEventListener('message', () => listeners.forEach((l) => l()));
  }
  return channel;
}

function changed() {
  broadcast()?.postMessage('changed');
  listeners.forEach((l) => l());
}

/** Calls `listener` whenever the queue changes, in this tab or another. */
export function subscribeQueue(listener: () => void): () => void {
  broadcast();
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export async function enqueue(change: QueuedChange): Promise<void> {
  await (await database()).add('changes', { ...change });
  changed();
}

/** The account's waiting changes (of one area, when given), oldest first. */
export async function pending(account: string, area?: QueueArea): Promise<QueuedChange[]> {
  const rows = await (await database()).getAllFromIndex('changes', 'account', account);
  return rows.filter((c) => area === undefined || areaOf(c.procedure) === area).map(({ seq: _seq, ...change }) => change);
}

/** Takes a change out of the queue; false when it is no longer there (sent or taken back meanwhile). */
async function remove(clientId: string): Promise<boolean> {
  const db = await database();
  const key = await db.getKeyFromIndex('changes', 'clientId', clientId);
  if (key === undefined) return false;
  await db.delete('changes', key);
  changed();
  return true;
}

/**
 * Whether a failed sending should be tried again later: no answer from the server at all (offline,
 * refused connection, a proxy's page instead of the API's JSON), or an answer meaning "not now"
 * (signed out meanwhile, too many requests, the server failing or restarting). Any other answer is
 * the server refusing this change for good (bad input, no such task).
 */
export function isRetryable(error: unknown): boolean {
  const status = (error as { data?: { httpStatus?: unknown } } | null)?.data?.httpStatus;
  if (typeof status !== 'number') return true;
  return status === 401 || status === 408 || status === 429 || status >= 500;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One sender at a time across tabs (Web Locks where the browser has them), and within this tab. */
let inTab: Promise<unknown> = Promise.resolve();
function exclusively<T>(run: () => Promise<T>): Promise<T> {
  const next = inTab.then(() => {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    return locks ? (locks.request(LOCK, run) as Promise<T>) : run();
  });
  inTab = next.catch(() => {});
  return next;
}

/**
 * Sends the account's waiting changes of `area`, oldest first, each with its own id, until one finds
 * no server (it and the later ones stay for the next try). `onOutcome` hears each answer, after the
 * change has left the queue. Returns how many were answered.
 */
export function flush(
  account: string,
  area: QueueArea,
  send: (change: QueuedChange) => Promise<unknown>,
  onOutcome: (change: QueuedChange, outcome: Outcome) => void,
): Promise<number> {
  return exclusively(async () => {
    let answered = 0;
    // Read inside the lock: another tab may have sent some meanwhile.
    for (const change of await pending(account, area)) {
      let outcome: Outcome;
      try {
        outcome = { kind: 'applied', result: await send(change) };
      } catch (error) {
        if (isRetryable(error)) break;
        outcome = { kind: 'refused', message: errorMessage(error) };
      }
      await remove(change.clientId);
      answered++;
      onOutcome(change, outcome);
    }
    return answered;
  });
}

/**
 * Takes back a change still waiting (Undo of a completion not yet sent: the two cancel out, and nobody
 * else's completion meanwhile gets undone). Waits for a sending in progress; false when the change has
 * been sent already, so the caller sends its own change instead.
 */
export function withdraw(clientId: string): Promise<boolean> {
  return exclusively(() => remove(clientId));
}
