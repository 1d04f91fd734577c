import { describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle.ts';

describe('throttle', () => {
  it('runs at once, then at most once per period with the latest arguments', () => {
    vi.useFakeTimers();
    const seen: number[] = [];
    const run = throttle((n: number) => seen.push(n), 1000);
    run(1);
    run(2);
    run(3);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(1000);
    expect(seen).toEqual([1, 3]);
    vi.advanceTimersByTime(5000);
    expect(seen).toEqual([1, 3]);
    run(4);
    expect(seen).toEqual([1, 3, 4]);
  });
});
