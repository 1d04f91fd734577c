import { useSyncExternalStore } from 'react';

/**
 * Whether the site is reachable: the browser believes it has a network (the `online`/`offline`
 * events of the window) and the last call to the server did not fail without an answer. The second
 * half matters because `navigator.onLine` says only that some network is up (a phone on a Wi-Fi with
 * no internet, a server that is down, or DevTools' and Playwright's offline mode after a reload all
 * leave it true). While the server is unreachable the page asks /healthz every few seconds, and on
 * the `online` event, until it answers.
 */
const PROBE_MS = 3_000;
const listeners = new Set<() => void>();
let reachable = true;
let probe: ReturnType<typeof setInterval> | undefined;

function notify() {
  for (const listener of listeners) listener();
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  listeners.add(onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
    listeners.delete(onChange);
  };
}

async function ask() {
  try {
    await fetch('/healthz', { cache: 'no-store' });
    reportReachable(true);
  } catch {
    // still unreachable
  }
}

/**
 * Asks /healthz once, now: a sign that the server may be gone (the live feed's stream dropped) is
 * checked at once instead of at the page's next call, which may be minutes away.
 */
export async function checkReachable(): Promise<void> {
  if (!reachable) return;
  try {
    await fetch('/healthz', { cache: 'no-store' });
  } catch {
    reportReachable(false);
  }
}

/** Called with every call to the server: true when it answered (any status), false when it could not be reached. */
export function reportReachable(ok: boolean): void {
  if (ok === reachable) return;
  reachable = ok;
  if (!ok) {
    probe = setInterval(() => void ask(), PROBE_MS);
    window.addEventListener('online', ask);
  } else {
    clearInterval(probe);
    window.removeEventListener('online', ask);
  }
  notify();
}

export function isOnline(): boolean {
  return reachable && (typeof navigator === 'undefined' || navigator.onLine !== false);
}

/** Follows `isOnline()`: `onChange` runs on each change of either half. */
export const onOnlineChange = subscribe;

/** The browser's network state, kept current. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}
