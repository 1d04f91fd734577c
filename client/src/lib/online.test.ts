import { afterEach, describe, expect, it, vi } from 'vitest';
import { isOnline, onOnlineChange, reportReachable } from './online.ts';

afterEach(() => reportReachable(true));

describe('online: the browser has a network and the server answers', () => {
  it('goes offline when a call gets no answer, and back once /healthz answers', async () => {
    vi.useFakeTimers();
    const changes = vi.fn();
    const stop = onOnlineChange(changes);
    const healthz = vi.spyOn(globalThis, 'fetch').mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValue(new Response('{}'));
    expect(isOnline()).toBe(true);
    reportReachable(false);
    expect([isOnline(), changes.mock.calls.length]).toEqual([false, 1]);
    // The probe asks every 3 s: the first try fails, the second answers.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(isOnline()).toBe(false);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(healthz).toHaveBeenCalledWith('/healthz', { cache: 'no-store' });
    expect([isOnline(), changes.mock.calls.length]).toEqual([true, 2]);
    stop();
  });

  it("is offline while the browser says so, whatever the server's last answer", () => {
    const offline = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    expect(isOnline()).toBe(false);
    offline.mockRestore();
    expect(isOnline()).toBe(true);
  });
});
