import os from 'node:os';
import type { Executor } from '../../db/database.ts';

/**
 * Claims a scheduled time: the one instance whose insert wins (the slot is unique) runs the backup;
 * the others get null. Works the same on PGlite and on a PostgreSQL shared by several servers.
 */
/** The process a run is recorded with. */
export const thisProcess = () => ({ pid: process.pid, host: os.hostname() });

export async function claimSlot(db: Executor, slot: Date, file: string, now: Date): Promise<number | null> {
  const row = await db
    .insertInto('backup_runs')
    .values({ kind: 'scheduled', slot, file, started_at: now, heartbeat_at: now, ...thisProcess() })
    .onConflict((oc) => oc.column('slot').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function releaseSlot(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('backup_runs').where('id', '=', id).execute();
}

export async function startCommandRun(db: Executor, file: string, now: Date): Promise<number> {
  const row = await db
    .insertInto('backup_runs')
    .values({ kind: 'command', file, started_at: now, heartbeat_at: now, ...thisProcess() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function heartbeat(db: Executor, id: number, now: Date): Promise<void> {
  await db.updateTable('backup_runs').set({ heartbeat_at: now }).where('id', '=', id).where('finished_at', 'is', null).execute();
}

export async function finishRun(db: Executor, id: number, result: { now: Date; sizeBytes: number | null; verified: boolean; error: string | null }) {
  await db
    .updateTable('backup_runs')
    .set({ finished_at: result.now, heartbeat_at: result.now, size_bytes: result.sizeBytes, verified: result.verified, error: result.error })
    .where('id', '=', id)
    .execute();
}

export function hasSlot(db: Executor, slot: Date) {
  return db.selectFrom('backup_runs').select('id').where('slot', '=', slot).executeTakeFirst();
}

/** The latest runs, newest first (the status needs the last finished one and a running one). */
export function latestRuns(db: Executor, limit: number) {
  return db.selectFrom('backup_runs').selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Runs that have not finished: running now, or interrupted (their process is gone). */
export function unfinishedRuns(db: Executor) {
  return db.selectFrom('backup_runs').select(['id', 'file', 'heartbeat_at', 'pid', 'host']).where('finished_at', 'is', null).execute();
}

/** Scheduled archives that exist (verified, not yet removed): what retention chooses from. */
export function keptArchives(db: Executor) {
  return db
    .selectFrom('backup_runs')
    .select(['id', 'slot', 'started_at', 'file'])
    .where('kind', '=', 'scheduled')
    .where('verified', '=', true)
    .where('removed_at', 'is', null)
    .orderBy('started_at', 'desc')
    .execute();
}

export async function markRemoved(db: Executor, id: number, now: Date): Promise<void> {
  await db.updateTable('backup_runs').set({ removed_at: now }).where('id', '=', id).execute();
}
