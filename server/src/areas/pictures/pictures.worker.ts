import { resumableUploads } from './pictures.resumable.ts';
import type { AppDeps } from '../../deps.ts';
import { removePictureFiles } from './pictures.files.ts';
import { deriveFiles, NO_PREVIEW } from './pictures.media.ts';
import { placeOfFile } from './pictures.places.ts';
import * as repo from './pictures.repository.ts';
import { startUp } from './pictures.startup.ts';
import { startWorkerLoop } from '../worker-loop.ts';

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
  const started = performance.now();
  try {
    // Its place is read from the same lent original as its thumbnail (a bucket's file downloaded once).
    let place: Awaited<ReturnType<typeof placeOfFile>> = null;
    const derived = await deriveFiles(deps.media, picture.stem, picture.file_type, async (file) => {
      place = await placeOfFile(file, picture.file_type);
    });
    const kept = await deps.db.transaction().execute(async (trx) => {
      const saved = await repo.saveDerived(trx, picture.id, derived);
      await repo.savePlace(trx, picture.id, place);
      await repo.finishJob(trx, job.id);
      return saved;
    });
    // Deleted while its thumbnail was being made: the new files belong to nothing.
    if (!kept) await removePictureFiles(deps, picture.stem, picture.file_type);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (job.attempts >= MAX_ATTEMPTS) {
      await deps.db.transaction().execute(async (trx) => {
        await repo.saveDerived(trx, picture.id, NO_PREVIEW);
        await repo.finishJob(trx, job.id);
      });
    } else {
      await repo.retryJob(deps.db, job.id, message, 30 * job.attempts);
    }
  } finally {
    // The decoder's time this job took, counted to whoever queued it (claimJob's bound).
    await repo.recordWork(deps.db, job.owner, performance.now() - started).catch(() => undefined);
  }
  return true;
}

/**
 * Runs due jobs until the queue is empty, waiting for ones another worker holds (tests and the
 * benchmark call it directly). Gives up after `timeoutMs`.
 */
export async function drainJobs(deps: AppDeps, timeoutMs = 60_000): Promise<number> {
  let n = 0;
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await runOneJob(deps)) {
      n++;
      continue;
    }
    if ((await repo.jobCount(deps.db)) === 0 || Date.now() > until) return n;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The area's background worker: polls the jobs table (and wakes on a nudge after an upload). Jobs
 * live in the database, so a restart picks up whatever was left, and two servers share the queue.
 */
export function startPicturesWorker(deps: AppDeps): { stop(): Promise<void> } {
  const loop = startWorkerLoop(() => runOneJob(deps), IDLE_MS);
  wakers.set(deps, () => loop.wake());
  // The start-up checks run beside the queue: hashing a large gallery's old pictures must not hold
  // back the thumbnails of today's uploads.
  const startUpDone = new AbortController();
  const checks = startUp(deps, startUpDone.signal).catch((err: unknown) => {
    if (!loop.stopped()) console.warn('site: the pictures start-up checks failed', err);
  });
  // Resumable uploads abandoned for a day (pictures.resumable.ts): looked for every hour.
  const resumable = resumableUploads(deps);
  const sweeper = setInterval(() => void resumable.sweep().catch((err: unknown) => console.warn('site: the resumable uploads sweep failed', err)), 60 * 60 * 1000);
  sweeper.unref();
  void resumable.sweep().catch(() => {});
  return {
    async stop() {
      clearInterval(sweeper);
      startUpDone.abort();
      wakers.delete(deps);
      await Promise.all([loop.stop(), checks]);
    },
  };
}
