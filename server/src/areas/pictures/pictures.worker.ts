import type { AppDeps } from '../../deps.ts';
import { deriveFiles } from './pictures.media.ts';
import * as repo from './pictures.repository.ts';

const LEASE_SECONDS = 300;
const MAX_ATTEMPTS = 3;
const IDLE_MS = 2000;

/** Wakes a running worker of these deps at once (after an upload) instead of at its next poll. */
const wakers = new WeakMap<AppDeps, () => void>();
export function nudgeWorker(deps: AppDeps): void {
  wakers.get(deps)?.();
}

/**
 * Runs one due job, if any: makes the picture's thumbnail (and display size or poster) and records
 * them. A failure is retried later; after MAX_ATTEMPTS the picture is marked as having no thumbnail,
 * so the grid stops waiting. Returns false when the queue had nothing due.
 */
export async function runOneJob(deps: AppDeps): Promise<boolean> {
  const job = await repo.claimJob(deps.db, LEASE_SECONDS);
  if (!job) return false;
  const picture = await repo.findById(deps.db, job.picture_id);
  if (!picture) {
    await repo.finishJob(deps.db, job.id);
    return true;
  }
  try {
    const derived = await deriveFiles(deps.media, picture.stem, picture.file_type);
    await deps.db.transaction().execute(async (trx) => {
      await repo.saveDerived(trx, picture.id, derived);
      await repo.finishJob(trx, job.id);
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (job.attempts >= MAX_ATTEMPTS) {
      await deps.db.transaction().execute(async (trx) => {
        await repo.saveDerived(trx, picture.id, { thumb: 'none', width: null, height: null, display: false, poster: false });
        await repo.finishJob(trx, job.id);
      });
    } else {
      await repo.retryJob(deps.db, job.id, message, 30 * job.attempts);
    }
  }
  return true;
}

/** Runs due jobs until none is left (tests and the benchmark call it directly). */
export async function drainJobs(deps: AppDeps): Promise<number> {
  let n = 0;
  while (await runOneJob(deps)) n++;
  return n;
}

/**
 * The area's background worker: polls the jobs table (and wakes on a nudge after an upload). Jobs
 * live in the database, so a restart picks up whatever was left, and two servers share the queue.
 */
export function startPicturesWorker(deps: AppDeps): { stop(): Promise<void> } {
  let stopped = false;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  wakers.set(deps, () => wake?.());
  const loop = (async () => {
    while (!stopped) {
      let worked = false;
      try {
        worked = await runOneJob(deps);
      } catch {
        // The database went away for a moment (or is closing); try again after a pause.
      }
      if (stopped) break;
      if (!worked) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, IDLE_MS);
        });
        clearTimeout(timer);
        wake = undefined;
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      wakers.delete(deps);
      await loop;
    },
  };
}
