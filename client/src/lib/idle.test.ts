import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterLoadWhenIdle } from './idle.ts';

describe('afterLoadWhenIdle', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('runs once the browser is idle after the load, within the timeout it is given', () => {
    const asked: { timeout?: number }[] = [];
    let idle: (() => void) | undefined;
    vi.stubGlobal('requestIdleCallback', (run: () => void, options: { timeout?: number }) => {
      idle = run;
      asked.push(options);
      return 1;
    });
    const run = vi.fn();
    afterLoadWhenIdle(run, 5000);
    // jsdom's document has loaded: it waits for the browser's idle moment, not longer.
    expect([run.mock.calls.length, asked]).toEqual([0, [{ timeout: 5000 }]]);
    idle?.();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('falls back to a short timer without requestIdleCallback, and a cancel stops it', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const run = vi.fn();
    afterLoadWhenIdle(run);
    const cancelled = vi.fn();
    afterLoadWhenIdle(cancelled)();
    vi.advanceTimersByTime(1000);
    expect([run.mock.calls.length, cancelled.mock.calls.length]).toEqual([1, 0]);
  });
});
