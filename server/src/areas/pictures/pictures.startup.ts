import { createHash } from 'node:crypto';
import type { MediaCheck, MediaStoreState } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { STALE_TEMP_MS } from '../../media/index.ts';
import { originalKey, parseFileName } from './pictures.files.ts';
import { placeOfStored } from './pictures.places.ts';
import * as repo from './pictures.repository.ts';

/**
 * What the pictures area does once when a server starts (from its worker, beside its job queue):
 * 1. checks that this instance's MEDIA_DIR holds every original the database names (instances with
 *    separate folders would 404 each other's pictures), logs what is missing and keeps the result
 *    for the Admin page;
 * 2. removes what a crash left: files under pictures/ that no row names and nothing has touched for
 *    STALE_TEMP_MS (an upload renames its file into place inside the transaction that writes its
 *    row, so a crash can leave a file without a row, never a row without its file; the age spares
 *    an upload another instance sharing the folder is committing right now); stale temporaries go
 *    when the store opens;
 * 3. hashes the originals of rows from before hashes were kept, so their duplicates are found too;
 * 4. makes the search documents a picture lacks (a restore of an archive from before search: the
 *    triggers keep them from then on);
 * 5. reads where the pictures from before places were kept were taken (pictures.places.ts), once
 *    each: new pictures get theirs in their job.
 */
export async function startUp(deps: AppDeps, signal?: AbortSignal): Promise<void> {
  const check = await checkMedia(deps);
  checks.set(deps, check);
  if (check.missing > 0) {
    console.warn(
      `site: ${check.missing} of ${check.checked} pictures named in the database are missing from ${deps.media.localFolder ? `MEDIA_DIR (${deps.media.localFolder})` : deps.media.description}, ` +
        `for example ${check.examples.join(', ')}. Every instance needs the same MEDIA_DIR (shared storage).`,
    );
  }
  const removed = await sweepUnreferenced(deps);
  if (removed > 0) console.warn(`site: removed ${removed} picture files no row names (left by a crash)`);
  await backfillHashes(deps, signal);
  await repo.refreshMissingSearch(deps.db);
  await backfillPlaces(deps, signal);
}

const checks = new WeakMap<AppDeps, MediaCheck>();

/** The start-up check of MEDIA_DIR, or null while it has not run yet. */
export function mediaCheck(deps: AppDeps): MediaCheck | null {
  return checks.get(deps) ?? null;
}

/** The store asked now: where the media are and whether it answers (a bucket that is down: why). */
export async function mediaStoreState(deps: AppDeps): Promise<MediaStoreState> {
  const health = await deps.media.health();
  return { description: deps.media.description, ok: health.ok, reason: health.ok ? null : health.reason, checkedAt: new Date().toISOString() };
}

const PAGE = 500;
const EXAMPLES = 5;

async function checkMedia(deps: AppDeps): Promise<MediaCheck> {
  let checked = 0;
  let missing = 0;
  const examples: string[] = [];
  for (let after = 0; ; ) {
    const rows = await repo.originalsAfter(deps.db, after, PAGE);
    if (rows.length === 0) break;
    const stats = await Promise.all(rows.map((row) => deps.media.stat(originalKey(row.stem, row.file_type))));
    rows.forEach((row, i) => {
      if (stats[i]) return;
      missing++;
      if (examples.length < EXAMPLES) examples.push(`${row.stem}.${row.file_type}`);
    });
    checked += rows.length;
    after = rows[rows.length - 1]?.id ?? after;
  }
  // Where the originals were looked for: the folder, or the bucket (server/src/media says which).
  return { checkedAt: new Date().toISOString(), checked, missing, examples, mediaDir: deps.media.localFolder ?? deps.media.description };
}

/** Removes stale files under pictures/ whose stem no row names; returns how many. */
export async function sweepUnreferenced(deps: AppDeps, olderThanMs = STALE_TEMP_MS): Promise<number> {
  const cutoff = Date.now() - olderThanMs;
  const files = (await deps.media.list('pictures'))
    .filter((f) => f.modified.getTime() < cutoff)
    .map((f) => ({ key: f.key, stem: parseFileName(f.key.slice('pictures/'.length))?.stem }));
  let removed = 0;
  for (let i = 0; i < files.length; i += PAGE) {
    const slice = files.slice(i, i + PAGE);
    const known = await repo.knownStems(deps.db, [...new Set(slice.flatMap((f) => (f.stem ? [f.stem] : [])))]);
    for (const file of slice) {
      // A name that is not one of ours is left alone: someone put it there by hand.
      if (!file.stem || known.has(file.stem)) continue;
      await deps.media.delete(file.key);
      removed++;
    }
  }
  return removed;
}

async function backfillHashes(deps: AppDeps, signal?: AbortSignal): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await repo.unhashed(deps.db, after, PAGE);
    for (const row of rows) {
      if (signal?.aborted) return;
      const key = originalKey(row.stem, row.file_type);
      // A row whose file is missing stays unhashed (the media check reports it).
      if (!(await deps.media.stat(key))) continue;
      const hash = createHash('sha256');
      for await (const chunk of deps.media.read(key)) hash.update(chunk as Buffer);
      await repo.setSha256(deps.db, row.id, hash.digest('hex'));
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]?.id ?? after;
  }
}

/**
 * The backlog's places, a page of pictures at a time (the pictures' own jobs record theirs as they
 * run). A picture whose original is missing is left for a later start (the media check reports it).
 */
export async function backfillPlaces(deps: AppDeps, signal?: AbortSignal): Promise<number> {
  let read = 0;
  for (let after = 0; ; ) {
    const rows = await repo.unplaced(deps.db, after, PAGE);
    for (const row of rows) {
      if (signal?.aborted) return read;
      const key = originalKey(row.stem, row.file_type);
      if (!(await deps.media.stat(key))) continue;
      await repo.savePlace(deps.db, row.id, await placeOfStored(deps.media, key, row.file_type));
      read++;
    }
    if (rows.length < PAGE) return read;
    after = rows[rows.length - 1]?.id ?? after;
  }
}
