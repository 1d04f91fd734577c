import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { DehydratedState, Query, QueryClient, QueryKey } from '@tanstack/react-query';
import type { PersistedClient, PersistQueryClientOptions, Persister } from '@tanstack/react-query-persist-client';
import { throttle } from './throttle.ts';

/**
 * Offline reading: the answers the list pages and the shell need are kept in IndexedDB, so after one
 * visit /house and /personal/todo open with no network and show their last state (the service worker
 * brings the page itself). Only these queries are kept, each entry is tagged with the account that
 * read it, and a member's own lists are dropped as soon as the browser's account changes (a sign-out,
 * a session that ended, another person signing in): a shared phone never shows the previous person's
 * Todo.
 */

/** The tRPC paths whose last answer is kept (tRPC keys are [['house','list'], {type:'query'}]). */
export const PERSISTED_PATHS = ['auth.status', 'settings.colors', 'settings.navbarStyle', 'house.list', 'todo.list'] as const;
/** Answers that belong to one member: kept only for the account that read them. */
const PERSONAL_PATHS: ReadonlySet<string> = new Set(['todo.list']);
/** How long a kept answer may be shown offline (and how long the unused ones stay in memory). */
export const PERSIST_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** Bump when the shape of a kept answer changes, so an old copy is dropped instead of shown. */
const PERSIST_VERSION = '1';
const ENTRY = 'queries';
const WRITE_EVERY_MS = 250;

type Account = string | null;
type Stored = { account: Account; client: PersistedClient };
type DehydratedQuery = DehydratedState['queries'][number];

export function pathOf(key: QueryKey): string | null {
  const path = key[0];
  return Array.isArray(path) && path.every((p) => typeof p === 'string') ? path.join('.') : null;
}

const persistedPaths: ReadonlySet<string> = new Set(PERSISTED_PATHS);
export const isPersistedKey = (key: QueryKey) => persistedPaths.has(pathOf(key) ?? '');

/** Whose answers a saved state holds: the signed-in name in its auth.status, else null. */
export function accountOf(state: DehydratedState): Account {
  const status = state.queries.find((q) => pathOf(q.queryKey) === 'auth.status');
  const user = (status?.state.data as { user?: unknown } | undefined)?.user;
  return typeof user === 'string' ? user : null;
}

/**
 * The state to write: a member's own answers only when an account is signed in and they were read
 * after that account arrived (`accountSince`), so an answer of the previous person never lands under
 * the next one's name.
 */
export function toStore(client: PersistedClient, accountSince: number): Stored {
  const account = accountOf(client.clientState);
  const keep = (q: DehydratedQuery) => !PERSONAL_PATHS.has(pathOf(q.queryKey) ?? '') || (account !== null && q.state.dataUpdatedAt >= accountSince);
  return { account, client: { ...client, clientState: { ...client.clientState, queries: client.clientState.queries.filter(keep) } } };
}

export type AccountPersister = Persister & {
  /** Marks the moment the browser's account changed and deletes what was kept. */
  accountChanged(): Promise<void>;
};

/** The persister: one IndexedDB entry (idb-keyval), written at most every 250 ms. */
export function createIdbPersister(store: () => UseStore = lazyStore()): AccountPersister {
  let accountSince = 0;
  const write = throttle((client: PersistedClient) => void set(ENTRY, toStore(client, accountSince), store()).catch(() => {}), WRITE_EVERY_MS);
  const remove = async () => {
    write.cancel();
    await del(ENTRY, store()).catch(() => {});
  };
  return {
    persistClient: write,
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
    if (known !== undefined && account !== known) {
      void persister.accountChanged();
      for (const path of PERSONAL_PATHS) queryClient.removeQueries({ queryKey: [path.split('.')], type: 'inactive' });
    }
    known = account;
  });
}

/** The options of PersistQueryClientProvider (App.tsx); null where the browser has no IndexedDB (unit tests). */
export function persistOptions(queryClient: QueryClient): Omit<PersistQueryClientOptions, 'queryClient'> | null {
  if (typeof indexedDB === 'undefined') return null;
  for (const path of PERSISTED_PATHS) queryClient.setQueryDefaults([path.split('.')], { gcTime: PERSIST_MAX_AGE_MS });
  const persister = createIdbPersister();
  forgetOtherAccounts(queryClient, persister);
  return {
    persister,
    maxAge: PERSIST_MAX_AGE_MS,
    buster: PERSIST_VERSION,
    dehydrateOptions: { shouldDehydrateQuery: (query) => query.state.status === 'success' && isPersistedKey(query.queryKey) },
  };
}
