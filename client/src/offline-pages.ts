/**
 * The pages that open with no network from the first visit on (their last state and "Offline"), the
 * members hub first (the installed app's start page). The service worker precaches their chunks with
 * the shell (client/offline-precache.ts), fetching them itself when it installs (in parallel: the
 * build's precache-warm.js); the page does not load them.
 */
export const OFFLINE_PAGES: readonly string[] = ['/personal', '/house', '/personal/todo'];
