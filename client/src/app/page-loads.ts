import { useSyncExternalStore } from 'react';

/**
 * The pages' chunks being fetched. Navigation runs in a transition (react-router's BrowserRouter), so
 * the page on screen stays while the next one's chunk loads; the shell shows its progress bar while
 * this count is above zero.
 */
let loading = 0;
const listeners = new Set<() => void>();
// A page's chunk starts loading while React renders: listeners hear of it after that render.
const notify = () => queueMicrotask(() => listeners.forEach((listener) => listener()));

/** `load` called at most once (a failure may be tried again), and counted while it runs. */
export function trackedLoad<T>(load: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => {
    if (promise) return promise;
    loading += 1;
    notify();
    promise = load().finally(() => {
      loading -= 1;
      notify();
    });
    promise.catch(() => {
      promise = undefined;
    });
    return promise;
  };
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** True while a page's chunk is being fetched. */
export function usePageLoading(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => loading > 0,
    () => false,
  );
}
