import { useSyncExternalStore } from 'react';
import { afterLoadWhenIdle } from './idle.ts';
import { onLiveReconnect } from './live-reconnect.ts';

/**
 * The service worker (made by the build: client/vite.config.ts, Workbox) and its updates.
 *
 * The page registers /sw.js once it has loaded and the browser is idle. A new deploy brings a new sw.js: the browser installs
 * it beside the running one, where it waits (the build does not skip waiting), so an open tab never
 * mixes two versions. The page then offers "Reload for the new version", which tells the waiting
 * worker to take over and reloads once it has. The page looks for a new version when the live feed
 * reconnects (a deploy restarts the server), when the tab becomes visible again, and every hour.
 *
 * Whether this browser can open the site with no network (`useOfflineReadiness`): 'preparing' from
 * the first visit's start until the browser's first worker has its precache in (it is then active, and
 * a reload is answered by it), 'ready' after, 'unsupported' with no worker at all.
 */

export const SW_URL = '/sw.js';
export const NEW_VERSION_TEXT = 'Reload for the new version';
const HOURLY_MS = 60 * 60 * 1000;
/** The registration waits for the browser's first idle moment after the load, this long at most. */
const REGISTER_WITHIN_MS = 1000;

let registration: ServiceWorkerRegistration | null = null;
let waiting: ServiceWorker | null = null;
let reloadAsked = false;
export type OfflineReadiness = 'unsupported' | 'preparing' | 'ready';
let readiness: OfflineReadiness = 'unsupported';
/** The worker became ready while this page was open (its first visit): the page says so once. */
let becameReadyHere = false;
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

/** `announce`: the worker got ready now, not already before (a reload that bypassed it). */
function setReadiness(next: OfflineReadiness, announce = true) {
  if (next === readiness) return;
  becameReadyHere = announce && next === 'ready' && readiness === 'preparing';
  readiness = next;
  notify();
}

function setWaiting(worker: ServiceWorker | null) {
  if (worker === waiting) return;
  waiting = worker;
  notify();
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

function subscribe(onChange: () => void) {
  listeners.add(onChange);
  return () => void listeners.delete(onChange);
}

/** Whether a new version waits (the "Reload for the new version" bar). */
export function useNewVersion(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => waiting !== null,
    () => false,
  );
}

export function offlineReadiness(): OfflineReadiness {
  return readiness;
}

/** Whether the site opens with no network on this browser, and whether it became so while this page was open. */
export function useOfflineReadiness(): { readiness: OfflineReadiness; justReady: boolean } {
  const now = useSyncExternalStore(subscribe, offlineReadiness, () => 'unsupported' as const);
  return { readiness: now, justReady: now === 'ready' && becameReadyHere };
}

/** Follows the registration until it has an active worker (its precache complete: `container.ready`). */
export function followReadiness(reg: ServiceWorkerRegistration, container: Pick<ServiceWorkerContainer, 'ready'> = navigator.serviceWorker): void {
  if (reg.active) {
    setReadiness('ready', false);
    return;
  }
  setReadiness('preparing');
  void container.ready.then(() => setReadiness('ready'));
  // A failed install (the network went before the precache was in): not ready; the next visit tries again.
  const worker = reg.installing;
  worker?.addEventListener('statechange', () => {
    if (worker.state === 'redundant' && !reg.active) setReadiness('unsupported');
  });
}

/**
 * Registers the service worker once the page has loaded and the browser is idle (never competing
 * with the first load or its first taps). The worker fetches its own precache, in parallel (the
 * build's precache-warm.js): the page fetches and evaluates nothing for it.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  setReadiness(navigator.serviceWorker.controller ? 'ready' : 'preparing');
  afterLoadWhenIdle(() => {
    navigator.serviceWorker
      .register(SW_URL, { scope: '/' })
      .then((reg) => {
        followReadiness(reg);
        watchRegistration(reg);
        onLiveReconnect(() => void checkForNewVersion());
        document.addEventListener('visibilitychange', () => {
          if (document.visibilityState === 'visible') void checkForNewVersion();
        });
        setInterval(() => void checkForNewVersion(), HOURLY_MS);
      })
      .catch(() => {
        // No worker (a private window that refuses one, a blocked script): the site works online as before.
        setReadiness('unsupported');
      });
  }, REGISTER_WITHIN_MS);
}

/** For tests: forget the registration and the waiting worker. */
export function resetPwaForTests(): void {
  registration = null;
  waiting = null;
  reloadAsked = false;
  readiness = 'unsupported';
  becameReadyHere = false;
  listeners.clear();
}
