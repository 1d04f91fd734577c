import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { createPasswordHasher, type PasswordHasher } from './identity/passwords.ts';
import { createSessionStore, type SessionStore } from './identity/sessions.ts';
import { createAuthLimits, type AuthLimits } from './identity/limits.ts';
import { createDeviceStore, type DeviceStore } from './identity/devices.ts';
import { createMediaStorage, type MediaStorage } from './media/index.ts';
import { createChangeFeed, type ChangeFeed } from './events/change-feed.ts';

/** Everything a request handler may use. Tests build their own with a test database. */
export type AppDeps = {
  config: Config;
  db: Database;
  sessions: SessionStore;
  /** Login and sign-up attempt counters (in the database, shared by every instance). */
  limits: AuthLimits;
  devices: DeviceStore;
  passwords: PasswordHasher;
  /** Uploaded files and their derived versions (server/src/media). */
  media: MediaStorage;
  /** Changes to the live areas, as the database notifies them (areas/live): the `GET /events` streams subscribe. */
  changes: ChangeFeed;
};

export function createDeps(config: Config, db: Database): AppDeps {
  return {
    config,
    db,
    sessions: createSessionStore(db, { sessionDays: config.sessionDays }),
    limits: createAuthLimits(db),
    devices: createDeviceStore(db),
    passwords: createPasswordHasher(config.argon2),
    media: createMediaStorage(config),
    changes: createChangeFeed(),
  };
}
