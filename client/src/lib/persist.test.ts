import 'fake-indexeddb/auto';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { createStore, del, get } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeQueueForTests, enqueue, pending, takeNotice } from './offline-queue.ts';
import { fillFromKept, keepForOffline, merged, toStore, createIdbPersister, pathOf } from './persist.ts';

const key = (path: string): QueryKey => [path.split('.'), { type: 'query' }];
const store = createStore('site', 'react-query');

type Kept = { account: string | null; client: { clientState: { queries: { queryKey: QueryKey; state: { data: unknown } }[] } } };
async function kept(): Promise<Kept | undefined> {
  return get<Kept>('queries', store);
}
const keptPaths = async () => ((await kept())?.client.clientState.queries ?? []).map((q) => pathOf(q.queryKey)).sort();

/** Waits for the throttled write (100 ms) to reach IndexedDB. */
const written = () => new Promise((resolve) => setTimeout(resolve, 400));

function client(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

let stops: (() => void)[] = [];
beforeEach(async () => {
  await del('queries', store);
});
afterEach(() => {
  stops.forEach((stop) => stop());
  stops = [];
});

describe('offline reading: kept answers', () => {
  it('keeps only the shell and list answers, and carries the ones an earlier page read', async () => {
    const house = client();
    stops.push(keepForOffline(house));
    house.setQueryData(key('auth.status'), { user: 'family', level: 2 });
    house.setQueryData(key('house.list'), [{ id: 1, task: 'Milk' }]);
    house.setQueryData(key('recipes.list'), ['not kept']);
    await written();
    expect(await keptPaths()).toEqual(['auth.status', 'house.list']);

    // The next page (a new document) reads the Todo only: the house list stays kept.
    const todo = client();
    stops.push(keepForOffline(todo));
    todo.setQueryData(key('auth.status'), { user: 'family', level: 2 });
    todo.setQueryData(key('todo.list'), [{ id: 7, task: 'Call grandma' }]);
    await written();
    expect(await keptPaths()).toEqual(['auth.status', 'house.list', 'todo.list']);
    expect((await kept())?.account).toBe('family');
  });

  it('started after the page has read its answers (after the load: App.tsx), writes them at once and takes the account as known', async () => {
    const page = client();
    await page.fetchQuery({ queryKey: key('auth.status'), queryFn: () => ({ user: 'Family', level: 1 }) });
    page.setQueryData(key('house.list'), [{ id: 1, task: 'Milk' }]);
    await enqueue({ clientId: 'c2', account: 'other', procedure: 'todo.add', input: { task: 'Theirs', clientId: 'c2' }, label: 'Theirs', createdAt: 1 });
    stops.push(keepForOffline(page));
    await written();
    expect(await keptPaths()).toEqual(['auth.status', 'house.list']);
    // Another account's waiting changes go, as when the login status answers after it started.
    await vi.waitFor(async () => expect(await pending('other')).toEqual([]));
    expect(await takeNotice('other')).toBe(1);
    await closeQueueForTests();
  });

  it('writes a new answer at once, not after the quiet period, and the last state when the page is left', async () => {
    const page = client();
    stops.push(keepForOffline(page));
    page.setQueryData(key('auth.status'), { user: 'family', level: 2 });
    await written();
    // An event with nothing new to keep starts the quiet period...
    page.setQueryData(key('recipes.list'), ['not kept']);
    // ...and a task just added comes back in a new answer: kept within a few milliseconds all the same (the member may leave at once).
    page.setQueryData(key('todo.list'), [{ id: 1, task: 'Water the plants' }]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await kept())?.client.clientState.queries.find((q) => pathOf(q.queryKey) === 'todo.list')?.state.data).toEqual([{ id: 1, task: 'Water the plants' }]);
    // Leaving the page writes what the throttle still held, in one write.
    page.getQueryCache().find({ queryKey: key('todo.list') })?.setState({ dataUpdatedAt: 0 });
    page.setQueryData(key('house.list'), [{ id: 2, task: 'Milk' }], { updatedAt: 1 });
    window.dispatchEvent(new Event('pagehide'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await keptPaths()).toEqual(['auth.status', 'house.list', 'todo.list']);
  });

  it('writes nothing before the login status is known', async () => {
    const page = client();
    stops.push(keepForOffline(page));
    page.setQueryData(key('house.list'), [{ id: 1 }]);
    await written();
    expect(await kept()).toBeUndefined();
  });

  it("never keeps a member's own list signed out, nor one read before the account changed", () => {
    const state = (user: string | null, todoAt: number) => ({
      buster: '1',
      timestamp: 1,
      clientState: {
        mutations: [],
        queries: [
          { queryKey: key('auth.status'), queryHash: 'a', state: { data: { user, level: 1 }, dataUpdatedAt: 10, status: 'success' } },
          { queryKey: key('todo.list'), queryHash: 't', state: { data: [], dataUpdatedAt: todoAt, status: 'success' } },
          { queryKey: key('house.list'), queryHash: 'h', state: { data: [], dataUpdatedAt: todoAt, status: 'success' } },
        ],
      },
    });
    const paths = (s: ReturnType<typeof toStore>) => s?.client.clientState.queries.map((q) => pathOf(q.queryKey));
    // @ts-expect-error -- a partial dehydrated state is enough here
    expect(paths(toStore(state(null, 50), 0))).toEqual(['auth.status', 'house.list']);
    // @ts-expect-error -- as above
    expect(paths(toStore(state('b', 50), 100))).toEqual(['auth.status', 'house.list']);
    // @ts-expect-error -- as above
    expect(paths(toStore(state('b', 150), 100))).toEqual(['auth.status', 'todo.list', 'house.list']);
    // Another account's entry is replaced, never merged.
    // @ts-expect-error -- as above
    const a = toStore(state('a', 50), 0)!;
    // @ts-expect-error -- as above
    const b = toStore(state('b', 50), 100)!;
    expect(merged(a, b)).toBe(b);
  });

  it('forgets the kept answers when the server says the account changed (a sign-out)', async () => {
    const page = client();
    stops.push(keepForOffline(page));
    await page.fetchQuery({ queryKey: key('auth.status'), queryFn: () => ({ user: 'family', level: 1 }) });
    page.setQueryData(key('todo.list'), [{ id: 7 }]);
    await written();
    expect(await keptPaths()).toEqual(['auth.status', 'todo.list']);
    await page.fetchQuery({ queryKey: key('auth.status'), queryFn: () => ({ user: null, level: 0 }), staleTime: 0 });
    await written();
    expect(await keptPaths()).toEqual(['auth.status']);
    expect(page.getQueryData(key('todo.list'))).toBeUndefined();
  });

  it("drops the previous account's waiting changes when the server says another is signed in, counted for their maker", async () => {
    const page = client();
    stops.push(keepForOffline(page));
    await page.fetchQuery({ queryKey: key('auth.status'), queryFn: () => ({ user: 'Family', level: 1 }) });
    await enqueue({ clientId: 'c1', account: 'family', procedure: 'todo.add', input: { task: 'Private', clientId: 'c1' }, label: 'Private', createdAt: 1 });
    await page.fetchQuery({ queryKey: key('auth.status'), queryFn: () => ({ user: 'Family', level: 1 }), staleTime: 0 });
    await written();
    expect(await pending('family')).toHaveLength(1);
    await page.fetchQuery({ queryKey: key('auth.status'), queryFn: () => ({ user: 'Other', level: 1 }), staleTime: 0 });
    await vi.waitFor(async () => expect(await pending('family')).toEqual([]));
    expect(await takeNotice('other')).toBe(0);
    expect(await takeNotice('family')).toBe(1);
    await closeQueueForTests();
  });

  it('fills the kept answers in when the browser is offline, and when a call fails without an answer', async () => {
    const first = client();
    stops.push(keepForOffline(first));
    first.setQueryData(key('auth.status'), { user: 'family', level: 2 });
    first.setQueryData(key('house.list'), [{ id: 1, task: 'Milk' }]);
    await written();

    const offline = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const reopened = client();
    stops.push(fillFromKept(reopened, createIdbPersister()));
    await vi.waitFor(() => expect(reopened.getQueryData(key('house.list'))).toEqual([{ id: 1, task: 'Milk' }]));
    offline.mockRestore();

    const lieFi = client();
    stops.push(fillFromKept(lieFi, createIdbPersister()));
    await expect(lieFi.fetchQuery({ queryKey: key('house.list'), queryFn: () => Promise.reject(new TypeError('Failed to fetch')) })).rejects.toThrow();
    await vi.waitFor(() => expect(lieFi.getQueryData(key('house.list'))).toEqual([{ id: 1, task: 'Milk' }]));
    expect(lieFi.getQueryState(key('house.list'))?.status).toBe('success');
  });

  it("does not fill in another account's answers", async () => {
    const first = client();
    stops.push(keepForOffline(first));
    first.setQueryData(key('auth.status'), { user: 'first', level: 1 });
    first.setQueryData(key('todo.list'), [{ id: 7 }]);
    await written();

    const next = client();
    next.setQueryData(key('auth.status'), { user: 'second', level: 1 });
    stops.push(fillFromKept(next, createIdbPersister()));
    await expect(next.fetchQuery({ queryKey: key('todo.list'), queryFn: () => Promise.reject(new TypeError('Failed to fetch')) })).rejects.toThrow();
    await written();
    expect(next.getQueryData(key('todo.list'))).toBeUndefined();
  });
});
