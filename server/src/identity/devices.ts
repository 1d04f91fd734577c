import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { hashToken } from './sessions.ts';
import { nameKey } from './users.repository.ts';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** A device cookie is kept this long after the sign-in that gave it. */
export const DEVICE_DAYS = 365;

/** The device cookies of browsers that have signed in (OWASP device cookies), by token hash. */
export type DeviceStore = {
  /** The device id (its token hash) when the token was given to a browser that signed in to `name`. */
  trustedFor(token: string | null, name: string): Promise<string | null>;
  /** A new device token for the account (the cookie value); only its hash is stored. */
  issue(userId: number): Promise<string>;
  sweep(): Promise<void>;
};

export function createDeviceStore(db: Database): DeviceStore {
  return {
    async trustedFor(token, name) {
      if (!token || !TOKEN_SHAPE.test(token)) return null;
      const tokenHash = hashToken(token);
      const row = await db
        .selectFrom('auth_devices')
        .innerJoin('users', 'users.id', 'auth_devices.user_id')
        .select(['users.name_key'])
        .where('auth_devices.token_hash', '=', tokenHash)
        .where('auth_devices.created_at', '>', sql<Date>`now() - make_interval(days => ${DEVICE_DAYS})`)
        .executeTakeFirst();
      return row && row.name_key === nameKey(name) ? tokenHash : null;
    },
    async issue(userId) {
      const token = randomBytes(32).toString('base64url');
      await db.insertInto('auth_devices').values({ token_hash: hashToken(token), user_id: userId }).execute();
      return token;
    },
    async sweep() {
      await db.deleteFrom('auth_devices').where('created_at', '<', sql<Date>`now() - make_interval(days => ${DEVICE_DAYS})`).execute();
    },
  };
}
