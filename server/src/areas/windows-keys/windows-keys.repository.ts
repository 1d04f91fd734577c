import type { WindowsKeyStatus } from '@site/contracts';
import type { Executor } from '../../db/database.ts';
import type { WindowsKeyEventsTable } from './windows-keys.tables.ts';

export function listKeys(db: Executor) {
  return db
    .selectFrom('windows_keys as k')
    .leftJoin('users as u', 'u.id', 'k.changed_by')
    .select(['k.key', 'k.status', 'k.location', 'k.changed_at', 'u.name as changed_by_name'])
    .orderBy('k.key')
    .execute();
}

export function findKeyForUpdate(db: Executor, key: string) {
  return db.selectFrom('windows_keys').select(['key', 'status', 'location']).where('key', '=', key).forUpdate().executeTakeFirst();
}

/** Inserts a key; undefined when it is already registered. */
export function insertKey(db: Executor, userId: number, values: { key: string; status: WindowsKeyStatus; location: string }) {
  return db
    .insertInto('windows_keys')
    .values({ ...values, changed_by: userId })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning(['key', 'status', 'location', 'changed_at'])
    .executeTakeFirst();
}

export function setKey(db: Executor, userId: number, key: string, values: { status: WindowsKeyStatus; location: string }) {
  return db
    .updateTable('windows_keys')
    .set({ ...values, changed_by: userId, changed_at: new Date() })
    .where('key', '=', key)
    .returning(['key', 'status', 'location', 'changed_at'])
    .executeTakeFirstOrThrow();
}

export function recordEvent(
  db: Executor,
  event: { key: string; action: WindowsKeyEventsTable['action']; status: WindowsKeyStatus; location: string; user_id: number },
) {
  return db.insertInto('windows_key_events').values(event).execute();
}

export function listEvents(db: Executor, key: string) {
  return db
    .selectFrom('windows_key_events as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .select(['e.action', 'e.status', 'e.location', 'e.at', 'u.name'])
    .where('e.key', '=', key)
    .orderBy('e.id')
    .execute();
}
