import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/**
 * The offline write queue. A change a member makes while the browser has no network (or whose sending
 * fails on the network) waits here, in IndexedDB, until it can be sent; each carries an id made in the
 * browser (`clientId`), which the server applies once per account, so sending it twice (a lost answer,
 * two tabs) changes nothing the second time.
 *
 * Changes are kept per account (the signed-in name): on a shared phone, one person's waiting changes
 * are only ever sent by that person's session. Each is sent with the header ACCOUNT_HEADER naming its
 * maker, and the server refuses it (412) under any other session, so a tab that has not yet heard of
 * a sign-out cannot send them as the next person. Once the server says another account (or none) is
 * signed in, the browser keeps none of them (`dropOtherAccounts`): what is left is a count per account
 * (nothing of the changes themselves), told to its maker at the next sign-in (`takeNotice`). They are sent in the order they were made, one sender
 * at a time across the browser's tabs (the Web Lock `site-offline-queue`), and each leaves the queue only
 * once the server has answered it: applied, or refused (a refusal is told to the member and dropped,
 * since sending it again would be refused again). A change that meets no server (offline, a server
 * restarting) stays and is tried again.
 */

/** The procedures the queue sends: the list pages' writes. */
export type QueueProcedure = 'house.add' | 'house.complete' | 'house.undo' | 'todo.add' | 'todo.update' | 'chores.done' | 'chores.undo';
export type QueueArea = 'house' | 'todo' | 'chores';

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
  /** Per account, how many of its changes were dropped unsent (their maker was signed out first). */
  notices: { key: string; value: { account: string; count: number } };
}

const DB_NAME = 'site-offline-queue';
const LOCK = 'site-offline-queue';
const CHANNEL = 'site-offline-queue';

let dbPromise: Promise<IDBPDatabase<QueueSchema>> | null = null;

function database(): Promise<IDBPDatabase<QueueSchema>> {
  dbPromise ??= openDB<QueueSchema>(DB_NAME, 2, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        // An increasing key keeps the order changes were made in; an account's index lists them in that order.
        const store = db.createObjectStore('changes', { keyPath: 'seq', autoIncrement: true });
        store.createIndex('account', 'account');
        store.createIndex('clientId', 'clientId', { unique: true });
      }
      if (oldVersion < 2) db.createObjectStore('notices', { keyPath: 'account' });
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
  return procedure.startsWith('house.') ? 'house' : procedure.startsWith('chores.') ? 'chores' : 'todo';
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
  const status = statusOf(error);
  if (status === undefined) return true;
  return status === 401 || status === 408 || status === 412 || status === 429 || status >= 500;
}

const statusOf = (error: unknown) => {
  const status = (error as { data?: { httpStatus?: unknown } } | null)?.data?.httpStatus;
  return typeof status === 'number' ? status : undefined;
};

/** The server's answer to a change sent while another account's session is the browser's (ACCOUNT_HEADER). */
export const isOtherAccount = (error: unknown) => statusOf(error) === 412;

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
  onOtherAccount: () => void = () => {},
): Promise<number> {
  return exclusively(async () => {
    let answered = 0;
    // Read inside the lock: another tab may have sent some meanwhile.
    for (const change of await pending(account, area)) {
      let outcome: Outcome;
      try {
        outcome = { kind: 'applied', result: await send(change) };
      } catch (error) {
        // Another account is signed in now: this one's changes stay (until the page hears who).
        if (isOtherAccount(error)) onOtherAccount();
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

/**
 * Keeps only `current`'s waiting changes (the account the server says is signed in, lower case; null
 * for none): every other account's leave the browser, and what is kept of them is how many there
 * were, for their maker's next sign-in. Returns how many were dropped.
 */
export function dropOtherAccounts(current: string | null): Promise<number> {
  return dropWhere((account) => account !== current, true);
}

/** Drops `account`'s waiting changes with no notice (it chose to sign out without them). */
export function discardAccount(account: string): Promise<number> {
  return dropWhere((of) => of === account, false);
}

function dropWhere(drop: (account: string) => boolean, notice: boolean): Promise<number> {
  return exclusively(async () => {
    const db = await database();
    const tx = db.transaction(['changes', 'notices'], 'readwrite');
    const dropped = new Map<string, number>();
    for (let cursor = await tx.objectStore('changes').openCursor(); cursor; cursor = await cursor.continue()) {
      if (!drop(cursor.value.account)) continue;
      dropped.set(cursor.value.account, (dropped.get(cursor.value.account) ?? 0) + 1);
      await cursor.delete();
    }
    const notices = tx.objectStore('notices');
    for (const [account, count] of notice ? dropped : []) {
      const before = (await notices.get(account))?.count ?? 0;
      await notices.put({ account, count: before + count });
    }
    await tx.done;
    if (dropped.size > 0) changed();
    return [...dropped.values()].reduce((a, b) => a + b, 0);
  });
}

/** How many of `account`'s changes were dropped unsent since it was last told; telling it once clears it. */
export async function takeNotice(account: string): Promise<number> {
  const db = await database();
  const tx = db.transaction('notices', 'readwrite');
  const notice = await tx.store.get(account);
  if (notice) await tx.store.delete(account);
  await tx.done;
  return notice?.count ?? 0;
}

/** The message of `takeNotice`'s count, shown to the maker only. */
export function unsentMessage(count: number): string {
  const changes = count === 1 ? '1 change' : `${count} changes`;
  return `${changes} you made offline on this device ${count === 1 ? 'was' : 'were'} not sent: you were signed out before ${count === 1 ? 'it' : 'they'} could be. Make ${count === 1 ? 'it' : 'them'} again if still needed.`;
}
