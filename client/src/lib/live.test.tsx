import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../test/event-source.ts';
import { onLiveReconnect, useLive } from './live.ts';
import { isOnline, reportReachable } from './online.ts';

const houseKey = [['house', 'list'], { type: 'query' }];
const todoKey = [['todo', 'list'], { type: 'query' }];
const statusKey = [['auth', 'status'], { type: 'query' }];

function setup() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(houseKey, ['milk']);
  client.setQueryData(todoKey, ['call']);
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const stale = (key: unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;
  return { client, wrapper, stale };
}

describe('useLive', () => {
  beforeEach(() => {
    FakeEventSource.all = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    // The server answers /healthz unless a test says otherwise.
    vi.stubGlobal('fetch', vi.fn(async () => new Response('ok')));
    vi.useFakeTimers();
    // The page has loaded and is idle: the connection opens as the page asks for it (see 'waits for …').
    vi.stubGlobal('requestIdleCallback', (run: () => void) => {
      run();
      return 0;
    });
  });
  afterEach(() => {
    reportReachable(true);
    // Let any connection left by a test end (the linger time), so the next starts from none.
    vi.advanceTimersByTime(60_000);
    vi.unstubAllGlobals();
  });

  it('waits for the browser to be idle after the load before it connects, then reads the live areas again at its first ready', () => {
    vi.stubGlobal('requestIdleCallback', (run: () => void) => setTimeout(run, 50));
    const { wrapper, stale } = setup();
    const hook = renderHook(() => useLive(['house']), { wrapper });
    expect(FakeEventSource.open()).toEqual([]);
    vi.advanceTimersByTime(50);
    const source = FakeEventSource.open()[0]!;
    expect(stale(houseKey)).toBe(false);
    // What the page read before the connection may have changed meanwhile.
    source.emit('ready');
    expect([stale(houseKey), stale(todoKey)]).toEqual([true, false]);
    hook.unmount();
  });

  it("turns a change of a page's area into a fresh read of that area only", () => {
    const { wrapper, stale } = setup();
    const hook = renderHook(() => useLive(['house']), { wrapper });
    expect(FakeEventSource.open().map((s) => s.url)).toEqual(['/events']);
    const source = FakeEventSource.open()[0]!;
    source.emit('ready');
    source.emit('change', JSON.stringify({ area: 'todo' }));
    expect([stale(houseKey), stale(todoKey)]).toEqual([false, false]);
    source.emit('change', JSON.stringify({ area: 'house' }));
    expect([stale(houseKey), stale(todoKey)]).toEqual([true, false]);
    // An unknown area or a broken event changes nothing.
    expect(() => source.emit('change', JSON.stringify({ area: '__proto__' }))).not.toThrow();
    hook.unmount();
  });

  it('reads an area once at a time: a burst of changes is one read, then one more, never a read cancelled by the next', async () => {
    const { wrapper } = setup();
    const answers: ((value: string[]) => void)[] = [];
    const queryFn = vi.fn(() => new Promise<string[]>((resolve) => answers.push(resolve)));
    const hook = renderHook(
      () => {
        useLive(['house']);
        return useQuery({ queryKey: houseKey, queryFn });
      },
      { wrapper },
    );
    const source = FakeEventSource.open()[0]!;
    source.emit('ready');
    const reads = queryFn.mock.calls.length;
    await act(async () => {
      for (let i = 0; i < 5; i++) source.emit('change', JSON.stringify({ area: 'house' }));
      await vi.advanceTimersByTimeAsync(0);
    });
    // One read runs; the four changes told meanwhile wait for it.
    expect(queryFn.mock.calls.length).toBe(reads + 1);
    // react-query tells its observers on a timer of 0 ms.
    const answer = (value: string[]) =>
      act(async () => {
        answers.at(-1)!(value);
        await vi.advanceTimersByTimeAsync(0);
      });
    await answer(['milk', 'bread']);
    // It answered (nothing cancelled it), and one more read follows for the changes told during it.
    expect(hook.result.current.data).toEqual(['milk', 'bread']);
    expect(queryFn.mock.calls.length).toBe(reads + 2);
    await answer(['milk', 'bread', 'eggs']);
    expect(hook.result.current.data).toEqual(['milk', 'bread', 'eggs']);
    expect(queryFn.mock.calls.length).toBe(reads + 2);
    hook.unmount();
  });

  it('shares one connection between the pages of a tab and closes it a while after the last one goes', () => {
    const { wrapper } = setup();
    const a = renderHook(() => useLive(['house']), { wrapper });
    const b = renderHook(() => useLive(['todo']), { wrapper });
    expect(FakeEventSource.open()).toHaveLength(1);
    a.unmount();
    b.unmount();
    vi.advanceTimersByTime(4_000);
    expect(FakeEventSource.open()).toHaveLength(1);
    // Another live page within the linger time keeps the same connection.
    const c = renderHook(() => useLive(['house']), { wrapper });
    vi.advanceTimersByTime(10_000);
    expect(FakeEventSource.all).toHaveLength(1);
    c.unmount();
    vi.advanceTimersByTime(5_000);
    expect(FakeEventSource.open()).toHaveLength(0);
  });

  it('reads every live area again after reconnecting, and says it reconnected', () => {
    const { wrapper, stale } = setup();
    const reconnected = vi.fn();
    const off = onLiveReconnect(reconnected);
    const hook = renderHook(() => useLive(['house', 'todo']), { wrapper });
    const source = FakeEventSource.open()[0]!;
    source.emit('ready');
    expect([stale(houseKey), stale(todoKey), reconnected.mock.calls.length]).toEqual([false, false, 0]);
    // The browser reconnects by itself after a drop; the server says ready again.
    source.fail(false);
    source.emit('ready');
    expect([stale(houseKey), stale(todoKey), reconnected.mock.calls.length]).toEqual([true, true, 1]);
    off();
    hook.unmount();
  });

  it('connects again at once when the server ends a stream on purpose, and catches up', () => {
    const { wrapper, stale } = setup();
    const reconnected = vi.fn();
    const off = onLiveReconnect(reconnected);
    const hook = renderHook(() => useLive(['house']), { wrapper });
    const first = FakeEventSource.open()[0]!;
    first.emit('ready');
    first.emit('reconnect');
    // No wait: the old stream is closed and a new one is connecting.
    expect(first.readyState).toBe(FakeEventSource.CLOSED);
    expect(FakeEventSource.open()).toHaveLength(1);
    const second = FakeEventSource.open()[0]!;
    expect(second).not.toBe(first);
    second.emit('ready');
    expect(stale(houseKey)).toBe(true);
    // A planned end is not a drop (a deploy): nothing to look for.
    expect(reconnected).not.toHaveBeenCalled();
    off();
    hook.unmount();
  });

  it("obeys the server's resync", () => {
    const { wrapper, stale } = setup();
    const hook = renderHook(() => useLive(['todo']), { wrapper });
    const source = FakeEventSource.open()[0]!;
    source.emit('ready');
    source.emit('resync');
    expect(stale(todoKey)).toBe(true);
    hook.unmount();
  });

  it('tries again later when the connection is refused, sooner when the network comes back', () => {
    const { wrapper } = setup();
    const hook = renderHook(() => useLive(['house']), { wrapper });
    FakeEventSource.open()[0]!.fail(true);
    expect(FakeEventSource.open()).toHaveLength(0);
    vi.advanceTimersByTime(1_000);
    expect(FakeEventSource.all).toHaveLength(2);
    FakeEventSource.all[1]!.fail(true);
    // The second wait is longer, but coming back online connects at once.
    vi.advanceTimersByTime(1_000);
    expect(FakeEventSource.all).toHaveLength(2);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(FakeEventSource.all).toHaveLength(3);
    expect(FakeEventSource.open()).toHaveLength(1);
    hook.unmount();
  });

  it('takes a dropped stream as a sign the server may be gone: asks /healthz at once and says offline if it does not answer', async () => {
    const { wrapper } = setup();
    const hook = renderHook(() => useLive(['house']), { wrapper });
    const source = FakeEventSource.open()[0]!;
    source.emit('ready');
    const fetch = vi.mocked(globalThis.fetch);
    // A drop while the server is there (a proxy's idle timeout): it answers, nothing changes.
    source.fail(false);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledWith('/healthz', { cache: 'no-store' }));
    expect(isOnline()).toBe(true);
    // The server stopped: no answer, so the page says offline now, not at its next call.
    fetch.mockRejectedValue(new TypeError('Failed to fetch'));
    source.fail(false);
    await vi.waitFor(() => expect(isOnline()).toBe(false));
    expect(fetch).toHaveBeenCalledTimes(2);
    hook.unmount();
  });

  it('opens the connection again when the account changes (signing in or out)', () => {
    const { client, wrapper } = setup();
    const hook = renderHook(() => useLive(['house']), { wrapper });
    act(() => void client.setQueryData(statusKey, { user: null, level: 0 }));
    expect(FakeEventSource.all).toHaveLength(1);
    act(() => void client.setQueryData(statusKey, { user: 'Ann', level: 2 }));
    expect(FakeEventSource.all).toHaveLength(2);
    expect(FakeEventSource.open()).toHaveLength(1);
    hook.unmount();
  });
});
