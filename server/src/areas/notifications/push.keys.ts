import webpush from 'web-push';
import { notificationMessages } from '@site/contracts';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';

export type VapidKeys = { publicKey: string; privateKey: string };

/** Read once per database: the keys never change once made (a restore brings back the same row). */
const cache = new WeakMap<Database, Promise<VapidKeys>>();

/**
 * The site's VAPID key pair, made on first use and kept in the database, so every instance signs
 * with the same key and a restored site keeps its browsers' subscriptions (they are bound to the
 * public key). Two instances making it at once keep the first row written.
 */
export function ensureVapidKeys(db: Database): Promise<VapidKeys> {
  return remember(db, loadOrMake(db));
}

/**
 * The keys for a read (`push.vapidKey` is a query: it never writes). The worker makes them when the
 * server starts, so they exist by the time a page asks.
 */
export function vapidKeys(db: Database): Promise<VapidKeys> {
  return cache.get(db) ?? remember(db, load(db));
}

function remember(db: Database, keys: Promise<VapidKeys>): Promise<VapidKeys> {
  cache.set(db, keys);
  keys.catch(() => cache.delete(db));
  return keys;
}

async function load(db: Database): Promise<VapidKeys> {
  const row = await db.selectFrom('push_vapid').select(['public_key', 'private_key']).where('id', '=', 1).executeTakeFirst();
  if (!row) throw new AppError('SERVICE_UNAVAILABLE', notificationMessages.noKeys);
  return { publicKey: row.public_key, privateKey: row.private_key };
}

async function loadOrMake(db: Database): Promise<VapidKeys> {
  const made = webpush.generateVAPIDKeys();
  await db
    .insertInto('push_vapid')
    .values({ id: 1, public_key: made.publicKey, private_key: made.privateKey })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const row = await db.selectFrom('push_vapid').select(['public_key', 'private_key']).where('id', '=', 1).executeTakeFirstOrThrow();
  return { publicKey: row.public_key, privateKey: row.private_key };
}

/** Forgets the cached keys (a restore replaced the database's rows). */
export function forgetVapidKeys(db: Database): void {
  cache.delete(db);
}
