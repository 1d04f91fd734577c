/**
 * Failed logins counted per key (an account name or a client address) in a sliding window. Kept in
 * memory: the server is one process, and a restart forgetting the counts only helps a real user.
 */
export type LoginThrottle = {
  isBlocked(keys: readonly string[]): boolean;
  recordFailure(keys: readonly string[]): void;
  clear(key: string): void;
  reset(): void;
};

export function createLoginThrottle(opts: { maxFailures: number; windowMs: number; now?: () => number }): LoginThrottle {
  const now = opts.now ?? Date.now;
  const failures = new Map<string, number[]>();

  const recent = (key: string): number[] => {
    const list = failures.get(key);
    if (!list) return [];
    const since = now() - opts.windowMs;
    const kept = list.filter((t) => t > since);
    if (kept.length === 0) failures.delete(key);
    else if (kept.length !== list.length) failures.set(key, kept);
    return kept;
  };

  const sweep = () => {
    if (failures.size < 10_000) return;
    for (const key of [...failures.keys()]) recent(key);
  };

  return {
    isBlocked: (keys) => keys.some((key) => recent(key).length >= opts.maxFailures),
    recordFailure(keys) {
      sweep();
      for (const key of keys) {
        const list = recent(key);
        list.push(now());
        failures.set(key, list);
      }
    },
    clear: (key) => void failures.delete(key),
    reset: () => failures.clear(),
  };
}
