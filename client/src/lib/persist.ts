import { createStore, del, get, update, type UseStore } from 'idb-keyval';
import { hydrate, onlineManager, type DehydratedState, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { persistQueryClientSave, persistQueryClientSubscribe, type PersistedClient, type Persister } from '@tanstack/react-query-persist-client';
import { dropOtherAccounts } from './offline-queue.ts';
import { isOnline, onOnlineChange } from './online.ts';
import { throttle } from './throttle.ts';

/**
 * Offline reading: the answers the list pages and the shell need are kept in IndexedDB, so after one
 * visit /house, /personal/todo and /house/chores open with no network and show their last state (the service worker
 * brings the page itself). They are written all the time and read back only when the network fails
 * the page: the browser is offline, or a kept query's call fails without an answer from the server.
 * Online, the page asks the server as it always did (a kept login status could hold an old level, and
 * a kept list would hide the loading state). Only these queries are kept, each entry is tagged with the account that
 * read it, and a member's own lists are dropped as soon as the browser's account changes (a sign-out,
 * a session that ended, another person signing in): a shared phone never shows the previous person's
 * Todo.
 */

/** The tRPC paths whose last answer is kept (tRPC keys are [['house','list'], {type:'query'}]). */
export const PERSISTED_PATHS = ['auth.status', 'settings.colors', 'settings.navbarStyle', 'house.list', 'todo.list', 'chores.list', 'plan.week'] as const;
/** Answers that belong to one member: kept only for the account that read them. */
const PERSONAL_PATHS: ReadonlySet<string> = new Set(['todo.list']);
/** How long a kept answer may be shown offline. */
export const PERSIST_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** Bump when the shape of a kept answer changes, so an old copy is dropped instead of shown. */
const PERSIST_VERSION = '1';
const ENTRY = 'queries';
const WRITE_EVERY_MS = 100;

type Account = string | null;
type Stored = { account: Account; client: PersistedClient };
type DehydratedQuery = DehydratedState['queries'][number];

export function pathOf(key: QueryKey): string | null {
  const path = key[0];
  return Array.isArray(path) && path.every((p) => typeof p === 'string') ? path.join('.') : null;
}

const persistedPaths: ReadonlySet<string> = new Set(PERSISTED_PATHS);
export const isPersistedKey = (key: QueryKey) => persistedPaths.has(pathOf(key) ?? '');

/** Whose answers a saved state holds: the signed-in name in its auth.status, null when signed out, undefined before it is known. */
export function accountOf(state: DehydratedState): Account | undefined {
  const status = state.queries.find((q) => pathOf(q.queryKey) === 'auth.status');
  if (!status) return undefined;
  const user = (status.state.data as { user?: unknown } | undefined)?.user;
  return typeof user === 'string' ? user : null;
}

/**
 * The state to write: a member's own answers only when an account is signed in and they were read
 * after that account arrived (`accountSince`), so an answer of the previous person never lands under
 * the next one's name.
 */
export function toStore(client: PersistedClient, accountSince: number): Stored | undefined {
  const account = accountOf(client.clientState);
  // Until the login status is known the page cannot say whose answers these are: nothing is written.
  if (account === undefined) return undefined;
  const keep = (q: DehydratedQuery) => !PERSONAL_PATHS.has(pathOf(q.queryKey) ?? '') || (account !== null && q.state.dataUpdatedAt >= accountSince);
  return { account, client: { ...client, clientState: { ...client.clientState, queries: client.clientState.queries.filter(keep) } } };
}

/**
 * A page holds only the answers it asked for (the list it shows, the shell's), so each write keeps the
 * answers written by earlier pages of the same account that this one did not read again.
 */
export function merged(kept: Stored | undefined, next: Stored): Stored {
  if (!kept || kept.account !== next.account) return next;
  const fresh = new Set(next.client.clientState.queries.map((q) => q.queryHash));
  const carried = kept.client.clientState.queries.filter((q) => !fresh.has(q.queryHash) && (next.account !== null || !PERSONAL_PATHS.has(pathOf(q.queryKey) ?? '')));
  return { ...next, client: { ...next.client, clientState: { ...next.client.clientState, queries: [...next.client.clientState.queries, ...carried] } } };
}

export type AccountPersister = Persister & {
  /** Marks the moment the browser's account changed and deletes what was kept. */
  accountChanged(): Promise<void>;
};

/**
 * The persister: one IndexedDB entry (idb-keyval), read and merged into on each write (`merged`:
 * other pages' answers stay). A new answer is written at once; the many cache events with nothing
 * new (a fetch starting or ending) at most every 100 ms, and when the page is left.
 */
export function createIdbPersister(store: () => UseStore = lazyStore()): AccountPersister {
  let accountSince = 0;
  let latest: PersistedClient | null = null;
  /** The newest answer this page has written (its time). */
  let newest = 0;
  const save = () => {
    const next = latest && toStore(latest, accountSince);
    latest = null;
    if (next) void update<Stored>(ENTRY, (kept) => merged(kept, next), store()).catch(() => {});
  };
  const write = throttle(save, WRITE_EVERY_MS);
  // A page left within the quiet period still writes its last state.
  if (typeof window !== 'undefined') window.addEventListener('pagehide', save);
  const remove = async () => {
    write.cancel();
    latest = null;
    await del(ENTRY, store()).catch(() => {});
  };
  return {
    persistClient(client) {
      latest = client;
      // A new answer (the list with the task just added) is written now, not up to 100 ms later: the
      // member may leave the page at once, and a write as it goes may not land. The many events of
      // a fetch starting or ending with nothing new wait for the throttle.
      const answered = Math.max(0, ...client.clientState.queries.map((q) => q.state.dataUpdatedAt));
      if (answered > newest) {
        newest = answered;
        write.cancel();
        save();
      } else write();
    },
    async restoreClient() {
      const stored = await get<Stored>(ENTRY, store()).catch(() => undefined);
      return stored?.client;
    },
    removeClient: remove,
    async accountChanged() {
      accountSince = Date.now();
      await remove();
    },
  };
}

function lazyStore(): () => UseStore {
  let store: UseStore | undefined;
  return () => (store ??= createStore('site', 'react-query'));
}

/**
 * Follows auth.status answers from the server: when the account differs from the last one seen (the
 * kept one included), the kept state is deleted and the member's own answers leave the memory too.
 */
export function forgetOtherAccounts(queryClient: QueryClient, persister: AccountPersister): () => void {
  let known: Account | undefined;
  // Started after the page's load (App.tsx): the login status the server gave it by then is this account's.
  const answered = queryClient.getQueryCache().findAll({ queryKey: [['auth', 'status']] }).find((q) => q.state.status === 'success' && q.state.data);
  if (answered) {
    known = (answered.state.data as { user: Account }).user;
    void dropOtherAccounts(known === null ? null : known.toLowerCase()).catch(() => {});
  }
  return queryClient.getQueryCache().subscribe((event) => {
    if ((event.type !== 'updated' && event.type !== 'added') || pathOf(event.query.queryKey) !== 'auth.status') return;
    const data = (event.query as Query<{ user: Account }>).state.data;
    if (!data) return;
    const account = data.user;
    // A restored answer ('added' by hydration) says whose state is kept; only the server's answers change it.
    const fetched = event.type === 'updated' && event.action.type === 'success' && !event.action.manual;
    if (!fetched) {
      known ??= account;
      return;
    }
    // The offline queue keeps only the signed-in account's waiting changes (lib/offline-queue.ts).
    void dropOtherAccounts(account === null ? null : account.toLowerCase()).catch(() => {});
    if (known !== undefined && account !== known) {
      void persister.accountChanged();
      for (const path of PERSONAL_PATHS) queryClient.removeQueries({ queryKey: [path.split('.')], type: 'inactive' });
    }
    known = account;
  });
}

/** A failure with no answer from the server (tRPC's errors from the server carry `data`). */
function isNetworkFailure(error: unknown): boolean {
  return !(error && typeof error === 'object' && 'data' in error && (error as { data?: unknown }).data);
}

/**
 * Puts the kept answers into the cache where the page has none, when the network fails it: at start
 * while offline, when the site becomes unreachable (lib/online.ts), when a kept query's call fails
 * without an answer, and when one is held back (paused) with nothing to show. Never another account's: only when the cache's login status (if any) is the kept one's.
 */
export function fillFromKept(queryClient: QueryClient, persister: Persister): () => void {
  const fill = async () => {
    const kept = await persister.restoreClient();
    if (!kept) return;
    const keptAccount = accountOf(kept.clientState);
    const status = queryClient.getQueryCache().findAll({ queryKey: [['auth', 'status']] }).find((q) => q.state.data !== undefined);
    if (status && (status.state.data as { user: Account }).user !== keptAccount) return;
    const missing = kept.clientState.queries.filter((q) => queryClient.getQueryCache().get(q.queryHash)?.state.data === undefined);
    if (missing.length > 0) hydrate(queryClient, { ...kept.clientState, queries: missing });
  };
  const onChange = () => {
    if (!isOnline()) void fill();
  };
  onChange();
  const stopWatching = onOnlineChange(onChange);
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || !isPersistedKey(event.query.queryKey)) return;
    const failed = event.action.type === 'error' && isNetworkFailure(event.action.error);
    // A call react-query holds back while the site is unreachable, with nothing to show meanwhile.
    const waiting = event.action.type === 'pause' && event.query.state.data === undefined;
    if (failed || waiting) void fill();
  });
  return () => {
    stopWatching();
    unsubscribe();
  };
}

/**
 * Keeps the answers offline reading needs (App.tsx): writes them on every change of the cache and
 * fills them back in when the network fails. Nothing where the browser has no IndexedDB (unit tests).
 */
export function keepForOffline(queryClient: QueryClient): () => void {
  if (typeof indexedDB === 'undefined') return () => {};
  // Kept answers stay in memory while the tab lives (a handful of small lists), so an unused one is
  // still written at the next save. Not a gcTime of weeks: a timer above 2^31 ms fires at once.
  for (const path of PERSISTED_PATHS) queryClient.setQueryDefaults([path.split('.')], { gcTime: Infinity });
  const persister = createIdbPersister();
  const persisting = {
    queryClient,
    persister,
    buster: PERSIST_VERSION,
    dehydrateOptions: { shouldDehydrateQuery: (query: Query) => query.state.status === 'success' && isPersistedKey(query.queryKey) },
  };
  // react-query pauses calls while the site is unreachable, not only while the browser says offline,
  // and calls again (refetchOnReconnect) once it answers.
  onlineManager.setEventListener((setOnline) => onOnlineChange(() => setOnline(isOnline())));
  const stops = [
    forgetOtherAccounts(queryClient, persister),
    fillFromKept(queryClient, persister),
    persistQueryClientSubscribe(persisting),
  ];
  // What the page read before this started (after its load: App.tsx) is written now, not at the next change.
  void persistQueryClientSave(persisting);
  return () => stops.forEach((stop) => stop());
}
