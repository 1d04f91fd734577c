import type { ChannelListener } from '../db/notifications.ts';
import type { SessionStore } from './sessions.ts';

/** The channel the database triggers (migration 20261123_auth_session_events) notify on. */
export const SESSION_CHANNEL = 'site_sessions';

/**
 * Triggers on `users` (level, name, deletion) and `sessions` (deletion: logout, expiry) NOTIFY at
 * commit; every process drops the cached entries named (db/notifications.ts carries them), so a level
 * change or logout made through one process (or `npm run user`) applies to the others milliseconds
 * after the commit. A request another process serves within that moment may still get the old answer
 * from its cache (measured: 1 in 200 to 400 immediate re-asks on a busy 2-core machine;
 * test/instances.test.ts waits for it, bounded). While the listening connection is down the cache is
 * not trusted at all (every request reads the database) until it is back.
 */
export function sessionChanges(sessions: SessionStore): ChannelListener {
  return {
    channel: SESSION_CHANNEL,
    onNotify: (payload) => {
      if (payload) sessions.applyChange(payload);
    },
    onListening: (listening) => {
      if (listening) sessions.clearCache();
      sessions.setCacheTrusted(listening);
    },
  };
}
