import { mediaKind } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { startWorkerLoop } from '../worker-loop.ts';
import { originalKey, variantKey } from '../pictures/pictures.port.ts';
import { IndexChild } from './people.child.ts';
import * as repo from './people.repository.ts';
import { regroup } from './people.regroup.ts';

/** A picture's lease: a server killed while indexing it leaves it to be claimed again after this. */
export const INDEX_LEASE_SECONDS = 120;
const MAX_ATTEMPTS = 3;
const IDLE_MS = 5000;

/** One indexing child per running app (tests and the bench reach it to kill it or close it). */
const children = new WeakMap<AppDeps, IndexChild>();
export function indexChildOf(deps: AppDeps): IndexChild {
  let child = children.get(deps);
  if (!child) {
    child = new IndexChild();
    children.set(deps, child);
  }
  return child;
}

/**
 * The stored file the models read: a video's poster frame, a still's display size when it has one
 * (types browsers cannot show, and large pictures: already turned upright, at most 1600 px), else the
 * original (a browser's type, at most 1600 px, or a GIF or SVG).
 */
function sourceOf(picture: repo.ClaimedIndex): string | null {
  if (mediaKind(picture.file_type) === 'video') return picture.has_poster ? variantKey(picture.stem, 'poster') : null;
  if (picture.has_display) return variantKey(picture.stem, 'display');
  if (picture.thumb_status !== 'ready') return null;
  return originalKey(picture.stem, picture.file_type);
}

/**
 * Indexes one due picture, if any: the child finds its faces and things, and they are stored, the
 * faces placed into people, and the picture marked indexed, in one transaction. Returns false when
 * nothing was due (or people are turned off). The child reads a file on this machine: the store
 * lends one (in a bucket, a temporary copy for the time of the reading).
 */
export async function indexOne(deps: AppDeps): Promise<boolean> {
  if (!(await repo.peopleEnabled(deps.db))) return false;
  const job = await repo.claimIndex(deps.db, INDEX_LEASE_SECONDS);
  if (!job) return false;
  const source = sourceOf(job);
  if (!source) {
    await repo.failIndex(deps.db, job.picture_id, 'no preview to read');
    return true;
  }
  let answer: Awaited<ReturnType<IndexChild['index']>>;
  try {
    answer = await deps.media.withLocalFile(source, (file) => indexChildOf(deps).index(file));
  } catch (error) {
    // The store could not lend the file (down, or the file gone): tried again later like a failed reading.
    answer = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (!answer.ok) {
    if (job.attempts >= MAX_ATTEMPTS) await repo.failIndex(deps.db, job.picture_id, answer.error);
    else await repo.retryIndex(deps.db, job.picture_id, answer.error, 30 * job.attempts);
    return true;
  }
  await deps.db.transaction().execute((trx) => repo.saveIndex(trx, job.picture_id, answer.faces, answer.things));
  return true;
}

/** Indexes until nothing is due (tests and the bench). */
export async function drainIndex(deps: AppDeps): Promise<number> {
  let n = 0;
  while (await indexOne(deps)) n++;
  return n;
}

/**
 * The area's background worker: one picture at a time, in one child at the lowest priority, each
 * picture's faces placed at once by their nearest person (people.cluster.ts), then all faces grouped
 * again (people.regroup.ts) when the batch is done. Wakes on
 * the pictures' changes and polls the queue every IDLE_MS besides; the child exits when idle.
 */
export function startPeopleWorker(deps: AppDeps): { stop(): Promise<void> } {
  if (!deps.config.peopleIndexing) return { stop: async () => undefined };
  // After each batch (the queue ran dry having indexed something), every face is grouped again.
  let indexedSinceGrouping = false;
  const loop = startWorkerLoop(async () => {
    if (await indexOne(deps)) {
      indexedSinceGrouping = true;
      return true;
    }
    if (indexedSinceGrouping) {
      // Dropped when a face or a decision came meanwhile: grouped again at the next idle turn.
      indexedSinceGrouping = (await regroup(deps.db)).stale === true;
    }
    return false;
  }, IDLE_MS);
  // A picture approved or given its thumbnail (a change of the pictures area, from any instance) is
  // looked at now rather than at the next poll.
  const unsubscribe = deps.changes.subscribe(
    (message) => {
      if (message.kind === 'resync' || message.change.area === 'pictures') loop.wake();
    },
    () => undefined,
  );
  return {
    async stop() {
      unsubscribe();
      await loop.stop();
      await indexChildOf(deps).close();
    },
  };
}
