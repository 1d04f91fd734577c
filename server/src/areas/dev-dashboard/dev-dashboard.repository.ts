import type { Executor } from '../../db/database.ts';

export function insertRun(db: Executor, run: { action: string; user_id: number; who: string; timeout_seconds: number }) {
  return db
    .insertInto('dev_runs')
    .values({ ...run, status: 'running' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findRun(db: Executor, id: number) {
  return db.selectFrom('dev_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findRunning(db: Executor) {
  return db.selectFrom('dev_runs').selectAll().where('status', '=', 'running').executeTakeFirst();
}

export function recentRuns(db: Executor, limit: number) {
  return db.selectFrom('dev_runs').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

export function saveOutput(db: Executor, id: number, output: string) {
  return db.updateTable('dev_runs').set({ output }).where('id', '=', id).where('status', '=', 'running').execute();
}

export function finishRun(
  db: Executor,
  id: number,
  end: { status: string; exit_code: number | null; duration_ms: number; output: string },
) {
  return db
    .updateTable('dev_runs')
    .set({ ...end, finished_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
