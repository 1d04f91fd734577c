import { useSyncExternalStore } from 'react';
import { onLiveReconnect } from './live-reconnect.ts';

/**
 * The service worker (made by the build: client/vite.config.ts, Workbox) and its updates.
 *
 * The page registers /sw.js once it has loaded. A new deploy brings a new sw.js: the browser installs
 * it beside the running one, where it waits (the build does not skip waiting), so an open tab never
 * mixes two versions. The page then offers "Reload for the new version", which tells the waiting
 * worker to take over and reloads once it has. The page looks for a new version when the live feed
 * reconnects (a deploy restarts the server), when the tab becomes visible again, and every hour.
 */

export const SW_URL = '/sw.js';
export const NEW_VERSION_TEXT = 'Reload for the new version';
const HOURLY_MS = 60 * 60 * 1000;

let registration: ServiceWorkerRegistration | null = null;
let waiting: ServiceWorker | null = null;
let reloadAsked = false;
const listeners = new Set<() => void>();

function setWaiting(worker: ServiceWorker | null) {
  if (worker === waiting) return;
  waiting = worker;
  for (const listener of listeners) listener();
}

/** Follows `reg` until a new worker is installed and waiting while an older one controls the page. */
export function watchRegistration(reg: ServiceWorkerRegistration, container: ServiceWorkerContainer = navigator.serviceWorker): void {
  registration = reg;
  // The first worker of this browser has no older one to wait for: nothing to offer.
  const offer = () => setWaiting(reg.waiting && container.controller ? reg.waiting : null);
  offer();
  reg.addEventListener('updatefound', () => {
    const installing = reg.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') offer();
    });
  });
  container.addEventListener('controllerchange', () => {
    if (reloadAsked) window.location.reload();
    else offer();
  });
}

/** Asks the server for a newer sw.js (the browser compares the bytes). Harmless without a worker. */
export async function checkForNewVersion(): Promise<void> {
  if (!registration) return;
  try {
    await registration.update();
  } catch {
    // Offline or the server restarting: the next reconnect, visit or hour asks again.
  }
}

/** Lets the waiting worker take over; the page reloads when it controls it (see watchRegistration). */
export function reloadForNewVersion(): void {
  if (!waiting) return;
  reloadAsked = true;
  waiting.postMessage({ type: 'SKIP_WAITING' });
}

/** Whether a new version waits (the "Reload for the new version" bar). */
export function useNewVersion(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => void listeners.delete(onChange);
    },
    () => waiting !== null,
    () => false,
  );
}

/** Registers the service worker after the page has loaded (never competing with the first load). */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const register = () => {
    navigator.serviceWorker
      .register(SW_URL, { scope: '/' })
      .then((reg) => {
        watchRegistration(reg);
        onLiveReconnect(() => void checkForNewVersion());
        document.addEventListener('visibilitychange', () => {
          if (document.visibilityState === 'visible') void checkForNewVersion();
        });
        setInterval(() => void checkForNewVersion(), HOURLY_MS);
      })
      .catch(() => {
        // No worker (a private window that refuses one, a blocked script): the site works online as before.
      });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/** For tests: forget the registration and the waiting worker. */
export function resetPwaForTests(): void {
  registration = null;
  waiting = null;
  reloadAsked = false;
  listeners.clear();
}
