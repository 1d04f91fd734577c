/**
 * The live feed's reconnections, for whoever waits for them (lib/pwa.ts looks for a new version: a
 * deploy restarts the server). On its own so the shell, which registers the hook, does not load the
 * live feed's code (lib/live.ts), which comes with the pages that use it.
 */
const reconnectHooks = new Set<() => void>();

/** Runs `hook` each time the feed connects again after a drop (a deploy restarts the server: a time to look for a new version). */
export function onLiveReconnect(hook: () => void): () => void {
  reconnectHooks.add(hook);
  return () => void reconnectHooks.delete(hook);
}

/** Called by the live feed when it has connected again. */
export function liveReconnected(): void {
  for (const hook of reconnectHooks) hook();
}
