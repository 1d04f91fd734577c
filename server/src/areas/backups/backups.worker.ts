import type { AppDeps } from '../../deps.ts';
import { nextSlot } from './backups.schedule.ts';
import { removeStalePartials, runDue } from './backups.service.ts';
import { startWorkerLoop } from '../worker-loop.ts';

/** Wakes at least this often, so a changed clock or a slot a busy moment skipped is not missed long. */
const MAX_SLEEP_MS = 10 * 60_000;

/**
 * The backup scheduler, a worker like the pictures queue: off without BACKUP_DIR. It wakes at each
 * BACKUP_AT (and every ten minutes), and runs the due backup if no instance has claimed it (the
 * claim is a row in backup_runs, so of several servers on one PostgreSQL one runs it). Each wake first
 * removes the partial files of backups that were killed. Stopping the server stops a backup in
 * progress within a chunk of a file; its partial file is removed.
 */
export function startBackupScheduler(deps: AppDeps): { stop(): Promise<void> } {
  if (!deps.config.backup.dir) {
    // The partial files of command backups a killed process left (with BACKUP_DIR, each wake does it).
    const swept = removeStalePartials(deps, new Date()).catch(() => {});
    return { stop: () => swept.then(() => {}) };
  }
  const stopping = new AbortController();
  const loop = startWorkerLoop(
    async () => {
      await runDue(deps, new Date(), stopping.signal);
      return false;
    },
    () => Math.min(Math.max(nextSlot(deps.config.backup.at, new Date()).getTime() - Date.now(), 1000), MAX_SLEEP_MS),
  );
  return {
    async stop() {
      stopping.abort();
      await loop.stop();
    },
  };
}
