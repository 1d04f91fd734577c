/**
 * The pages that open with no network from the first visit on (their last state and "Offline"), the
 * members hub first (the installed app's start page). The service worker precaches their chunks with
 * the shell (client/offline-precache.ts); a first visit fetches them beside its own page (main.tsx), so
 * the worker's install finds them in the browser's cache.
 */
export const OFFLINE_PAGES: readonly string[] = ['/personal', '/house', '/personal/todo'];
