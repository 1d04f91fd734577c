import type { PageType } from '@site/contracts';
import type { Database } from '../../db/database.ts';
import { fencesByDay, layoutOf, planRead, type GalleryCounts, type Layout, type Paging } from './pictures.paging.ts';
import * as repo from './pictures.repository.ts';

/**
 * The gallery's counts, kept in this process's memory per database, with the token they were read
 * under (see the migration 20261124_pictures_layout_cache). Nothing here is ever invalidated
 * locally: every read checks the token in the database, in the same statement as its rows when it
 * has rows to read, so a change made through another process, another connection or by hand is
 * seen on the next call, and a call costs one small query.
 */
type Cached = { counts: GalleryCounts; fences: Map<number, number[]>; layouts: Map<string, Layout> };

const cache = new WeakMap<Database, Cached>();

/** The looker's layout: the approved counts plus the pending pictures the looker sees. */
function layoutFor(cached: Cached, looker: repo.Looker): Layout {
  const pending = looker.admin ? cached.counts.pending : cached.counts.pending.filter((p) => p.uploader === looker.id);
  // Members without pending pictures of their own all see the same gallery.
  const key = looker.admin ? 'admin' : pending.length > 0 ? `member ${looker.id}` : 'members';
  let layout = cached.layouts.get(key);
  if (!layout) {
    layout = layoutOf(cached.counts.approved, pending, cached.fences);
    cached.layouts.set(key, layout);
  }
  return layout;
}

export type PageWithPictures = { paging: Paging; pictures: repo.PictureCard[] };

/**
 * The paging of `type`/`index` for the looker and, when `want` is given, at most `want.limit` of
 * the page's pictures from its `want.offset`th, read consistently with the paging.
 */
export async function readPage(
  db: Database,
  looker: repo.Looker,
  type: PageType,
  index: number,
  want: { offset: number; limit: number } | null,
): Promise<PageWithPictures> {
  const cached = cache.get(db);
  // No token (picture_paging emptied by hand): nothing to check against, so always read afresh.
  if (cached && cached.counts.token !== null) {
    const plan = planRead(layoutFor(cached, looker), type, index, want);
    if (plan.fetch) {
      const { token, pictures } = await repo.pageRows(db, looker, plan.fetch);
      if (token === cached.counts.token && pictures.length === plan.fetch.limit) return { paging: plan.paging, pictures };
    } else if ((await repo.pagingToken(db)) === cached.counts.token) {
      return { paging: plan.paging, pictures: [] };
    }
  }
  // First read, or the pictures changed: the counts and the rows from one snapshot.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const counts = await repo.galleryCounts(trx);
      const fresh: Cached = { counts, fences: fencesByDay(counts.fences), layouts: new Map() };
      cache.set(db, fresh);
      const plan = planRead(layoutFor(fresh, looker), type, index, want);
      return { paging: plan.paging, pictures: plan.fetch ? (await repo.pageRows(trx, looker, plan.fetch)).pictures : [] };
    });
}

/** The index of the month page that shows pictures taken in `date`'s month, for the looker (0 when none does). */
export async function monthPageOf(db: Database, looker: repo.Looker, date: { year: number; month: number }): Promise<number> {
  await readPage(db, looker, 'month', 0, null);
  const cached = cache.get(db);
  if (!cached) return 0;
  return Math.max(0, layoutFor(cached, looker).months.findIndex((m) => m.year === date.year && m.month === date.month));
}
