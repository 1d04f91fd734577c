import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { createPasswordHasher, type PasswordHasher } from './areas/auth/passwords.ts';
import { createSessionStore, type SessionStore } from './identity/sessions.ts';
import { createLoginThrottle, type LoginThrottle } from './areas/auth/throttle.ts';
import { createLocalStorage, type MediaStorage } from './media/index.ts';

/** Everything a request handler may use. Tests build their own with a test database. */
export type AppDeps = {
  config: Config;
  db: Database;
  sessions: SessionStore;
  throttle: LoginThrottle;
  passwords: PasswordHasher;
  /** Uploaded files and their derived versions (server/src/media). */
  media: MediaStorage;
};

export function createDeps(config: Config, db: Database): AppDeps {
  return {
    config,
    db,
    sessions: createSessionStore(db, { sessionDays: config.sessionDays }),
    throttle: createLoginThrottle(config.loginThrottle),
    passwords: createPasswordHasher(config.argon2),
    media: createLocalStorage(config.mediaDir),
  };
}
