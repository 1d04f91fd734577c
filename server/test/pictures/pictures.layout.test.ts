import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Level, PageType } from '@site/contracts';
import { createDeps, type AppDeps } from '../../src/app.ts';
import * as repo from '../../src/areas/pictures/pictures.repository.ts';
import { backupTo } from '../../src/areas/backups/backups.write.ts';
import { restoreFrom } from '../../src/areas/backups/backups.restore.ts';
import { siteSchema } from '../../src/migrations.ts';
import { createDb, type Database } from '../../src/db/database.ts';
import type { SessionUser } from '../../src/identity/session-user.ts';
import { callerFor, createTestDb, createUser, databases, testConfig, truncateAll, type TestDb } from '../helpers.ts';
import { pictureRow, tempMediaDir } from './pictures.fixtures.ts';

/**
 * The gallery keeps its counts in each process's memory (pictures.layout.ts). Two "servers" on one
 * database here: `one` writes, `two` reads, each with its own cache (on PostgreSQL its own pool; on
 * PGlite, which one process owns, a second Kysely instance over the same connection). Every change
 * made through one, or by hand in SQL, must show on the other's next call.
 */
describe.each(databases)('pictures layout cache across servers (%s)', (kind) => {
  let handle: TestDb;
  let second: { db: Database; close: () => Promise<void> };
  let one: AppDeps;
  let two: AppDeps;
  const mediaDir = tempMediaDir();

  beforeAll(async () => {
    handle = await createTestDb(kind);
    second =
      kind === 'postgres' && handle.url ? await createDb({ kind: 'postgres', url: handle.url }) : { db: handle.db.withoutPlugins(), close: async () => {} };
    one = createDeps(testConfig({ MEDIA_DIR: mediaDir }), handle.db);
    two = createDeps(testConfig({ MEDIA_DIR: mediaDir }), second.db);
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await handle?.close();
  });
  beforeEach(() => truncateAll(handle.db));

  const user = (name: string, level: Level) => createUser(one, name, level);
  const seed = (by: SessionUser | null, caption: string, date: [number, number, number], status: 'approved' | 'pending' = 'approved') =>
    one.db.transaction().execute((trx) => repo.insertPicture(trx, pictureRow(by, caption, date, status)));
  /** Every month page as `label: captions` (pending ones starred), read through `deps`. */
  const months = async (deps: AppDeps, viewer: SessionUser) => {
    const api = callerFor(deps, viewer);
    const { pageCount } = await api.pictures.pageInfo({ type: 'month', index: 0 });
    const pages: string[] = [];
    for (let index = 0; index < pageCount; index++) {
      const page = await api.pictures.page({ type: 'month', index });
      pages.push(`${page.label}: ${page.pictures.map((p) => `${p.desc}${p.pending ? '*' : ''}`).join(' ')}`);
    }
    return pages;
  };

  it('approval, rejection, a new date, deletion and an upload through one server show on the other at once', async () => {
    const admin = await user('admin', 3);
    const member = await user('member', 2);
    const friend = await user('friend', 1);
    const other = await user('other', 1);
    await seed(member, 'beach', [2024, 7, 15]);
    const dunes = await seed(member, 'dunes', [2024, 7, 0]);
    const waiting = await seed(friend, 'party', [2024, 7, 20], 'pending');
    const doubtful = await seed(friend, 'blurry', [2023, 1, 1], 'pending');
    const viewOne = callerFor(one, admin);

    expect(await months(two, other)).toEqual(['July 2024: beach dunes']);
    expect(await months(two, friend)).toEqual(['July 2024: party* beach dunes', 'January 2023: blurry*']);
    expect(await months(two, admin)).toEqual(['July 2024: party* beach dunes', 'January 2023: blurry*']);

    await viewOne.pictures.approve({ id: waiting.id });
    expect(await months(two, other)).toEqual(['July 2024: party beach dunes']);
    expect(await callerFor(two, other).pictures.get({ type: 'month', index: 0, pic: 0 })).toMatchObject({ desc: 'party', pending: false });
    expect(await callerFor(two, other).pictures.pageInfo({ type: 24, index: 0 })).toEqual({ pageLength: 3, pageCount: 1, label: 'All Pictures' });

    await viewOne.pictures.reject({ id: doubtful.id });
    expect(await months(two, friend)).toEqual(['July 2024: party beach dunes']);

    const beach = (await callerFor(two, other).pictures.page({ type: 'month', index: 0 })).pictures.find((p) => p.desc === 'beach');
    await viewOne.pictures.update({ id: beach?.id ?? 0, caption: 'beach', date: '2019-03-04' });
    expect(await months(two, other)).toEqual(['July 2024: party dunes', 'March 2019: beach']);
    expect(await callerFor(two, other).pictures.pageInfo({ type: 'year', index: 1 })).toEqual({ pageLength: 1, pageCount: 2, label: '2019' });
    // Only the day changes: the picture moves within its month, and across pages of two.
    await viewOne.pictures.update({ id: dunes.id, caption: 'dunes', date: '2024-07-25' });
    expect(await months(two, other)).toEqual(['July 2024: dunes party', 'March 2019: beach']);
    expect((await callerFor(two, other).pictures.page({ type: 2, index: 0 })).pictures.map((p) => p.desc)).toEqual(['dunes', 'party']);
    expect(await callerFor(two, other).pictures.get({ type: 2, index: 1, pic: 0 })).toMatchObject({ desc: 'beach' });

    await viewOne.pictures.delete({ id: beach?.id ?? 0 });
    expect(await months(two, other)).toEqual(['July 2024: dunes party']);
    await expect(callerFor(two, other).pictures.get({ type: 'month', index: 1, pic: 0 })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    await seed(other, 'snow', [2025, 1, 2], 'pending');
    expect(await months(two, other)).toEqual(['January 2025: snow*', 'July 2024: dunes party']);
    expect(await months(two, friend)).toEqual(['July 2024: dunes party']);
    await seed(member, 'ice', [2025, 1, 3]);
    expect(await months(two, friend)).toEqual(['January 2025: ice', 'July 2024: dunes party']);
  });

  it('a change made by hand in SQL, or an account deleted, shows on the next call', async () => {
    const admin = await user('admin', 3);
    const member = await user('member', 2);
    const friend = await user('friend', 1);
    await seed(member, 'old', [2020, 5, 5]);
    await seed(friend, 'mine', [2020, 5, 6], 'pending');
    expect(await months(two, friend)).toEqual(['May 2020: mine* old']);
    expect(await months(two, member)).toEqual(['May 2020: old']);

    // A pending picture's day alone (no count changes with it), then its uploader.
    await sql`update pictures set day = 1 where caption = 'mine'`.execute(one.db);
    expect(await months(two, friend)).toEqual(['May 2020: old mine*']);
    await sql`update pictures set uploaded_by = ${member.id} where caption = 'mine'`.execute(one.db);
    expect(await months(two, member)).toEqual(['May 2020: old mine*']);
    expect(await months(two, friend)).toEqual(['May 2020: old']);

    await sql`update pictures set year = 2021 where caption = 'old'`.execute(one.db);
    await sql`update picture_days set year = 2021 where year = 2020`.execute(one.db);
    expect(await months(two, member)).toEqual(['May 2021: old', 'May 2020: mine*']);

    // The uploader's account goes: the pending picture stays, for admins only.
    await sql`delete from users where id = ${member.id}`.execute(one.db);
    expect(await months(two, admin)).toEqual(['May 2021: old', 'May 2020: mine*']);
    expect(await months(two, friend)).toEqual(['May 2021: old']);

    // With what refers to pictures (hearts, comments): truncate refuses a table others' keys name.
    await sql`truncate pictures, picture_days, picture_jobs cascade`.execute(one.db);
    expect(await months(two, admin)).toEqual([]);
  });

  it('a backup of a gallery restores, and the restored gallery pages and follows changes at once', async () => {
    const admin = await user('admin', 3);
    const member = await user('member', 2);
    const friend = await user('friend', 1);
    await seed(member, 'beach', [2024, 7, 15]);
    await seed(member, 'dunes', [2024, 7, 0]);
    const waiting = await seed(friend, 'party', [2023, 1, 20], 'pending');
    const before = await months(one, admin);
    expect(before).toEqual(['July 2024: beach dunes', 'January 2023: party*']);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pictures-restore-'));
    const target = await createTestDb(kind);
    try {
      const archive = path.join(dir, 'site.tar.gz');
      await backupTo(handle.db, path.join(dir, 'source'), archive);
      // The site's backup key goes along (docs/backups.md): the archive is signed with it.
      fs.mkdirSync(path.join(dir, 'target'));
      fs.copyFileSync(path.join(dir, 'source', 'backup.key'), path.join(dir, 'target', 'backup.key'));
      await restoreFrom(siteSchema, target.db, path.join(dir, 'target'), archive);
      const restored = createDeps(testConfig({ MEDIA_DIR: mediaDir }), target.db);
      expect(await months(restored, admin)).toEqual(before);
      expect(await months(restored, member)).toEqual(['July 2024: beach dunes']);
      await callerFor(restored, admin).pictures.approve({ id: waiting.id });
      expect(await months(restored, member)).toEqual(['July 2024: beach dunes', 'January 2023: party']);
    } finally {
      await target.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  /**
   * Through `two`: every page of month, year and each size, for each viewer, holds the full list
   * (read from the table) cut in the gallery's order, and `get` of each page's last picture agrees.
   */
  async function expectPagesCutTheList(viewers: SessionUser[], sizes: number[]) {
    const all = (await one.db.selectFrom('pictures').selectAll().execute()).sort(
      (a, b) => b.year - a.year || b.month - a.month || b.day - a.day || b.id - a.id,
    );
    for (const viewer of viewers) {
      const visible = all.filter((p) => viewer.level >= 3 || p.status === 'approved' || p.uploaded_by === viewer.id);
      const api = callerFor(two, viewer);
      for (const type of ['month', 'year', ...sizes] as PageType[]) {
        const { pageCount } = await api.pictures.pageInfo({ type, index: 0 });
        const pages: string[][] = [];
        for (let index = 0; index < pageCount; index++) {
          const page = await api.pictures.page({ type, index });
          const captions = page.pictures.map((p) => p.desc);
          expect(page.pageLength).toBe(captions.length);
          pages.push(captions);
          const last = captions.length - 1;
          expect((await api.pictures.get({ type, index, pic: last })).desc).toBe(captions[last]);
        }
        expect(pages.flat()).toEqual(visible.map((p) => p.caption));
        if (typeof type === 'number') expect(pages.slice(0, -1).every((p) => p.length === type)).toBe(true);
        else {
          const key = (p: (typeof all)[number]) => (type === 'month' ? `${p.year}-${p.month}` : `${p.year}`);
          const groups = new Map<string, number>();
          for (const p of visible) groups.set(key(p), (groups.get(key(p)) ?? 0) + 1);
          expect(pages.map((p) => p.length)).toEqual([...groups.values()]);
        }
      }
    }
  }

  it('a day of hundreds of pictures (scans with only a year) pages right deep inside it, pending ones among them', async () => {
    const people = [await user('admin', 3), await user('member', 2), await user('friend', 1), await user('other', 1)];
    const [, member, friend, other] = people;
    await seed(member ?? null, 'newest', [2001, 2, 3]);
    // 450 pictures of 1990 with no month or day; every 37th pending, by friend or other in turn.
    await sql`
      insert into pictures (stem, file_type, mime, size_bytes, caption, year, month, day, status, uploaded_by)
      select md5(i::text), 'jpg', 'image/jpeg', 10, 'scan ' || i, 1990, 0, 0,
        case when i % 37 = 0 then 'pending' else 'approved' end,
        case when i % 74 = 0 then ${friend?.id}::int when i % 37 = 0 then ${other?.id}::int else ${member?.id}::int end
      from generate_series(1, 450) as i`.execute(one.db);
    await sql`
      insert into picture_days (year, month, day, approved)
      select year, month, day, count(*) from pictures where status = 'approved' and year = 1990 group by year, month, day`.execute(one.db);
    await seed(member ?? null, 'oldest', [1989, 12, 31]);
    await expectPagesCutTheList(people, [24, 7]);
  });

  type Spec = { year: number; month: number; day: number; status: 'approved' | 'pending'; by: number };
  // Few distinct days, so that many pictures share one and pages start inside days.
  const spec: fc.Arbitrary<Spec> = fc
    .record({
      year: fc.constantFrom(0, 2023, 2024),
      month: fc.integer({ min: 0, max: 3 }),
      day: fc.integer({ min: 0, max: 2 }),
      status: fc.constantFrom('approved' as const, 'approved' as const, 'pending' as const),
      by: fc.integer({ min: 0, max: 3 }),
    })
    .map((s) => ({ ...s, month: s.year === 0 ? 0 : s.month, day: s.year === 0 || s.month === 0 ? 0 : s.day }));

  it('every page of every type, and each picture of it, is the full list cut in the gallery order, for every looker', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(spec, { minLength: 1, maxLength: 30 }), fc.constantFrom(3, 7), async (specs, size) => {
        await truncateAll(handle.db);
        const people = [await user('admin', 3), await user('member', 2), await user('friend', 1), await user('other', 1)];
        const gone = await user('gone', 1);
        for (const [i, s] of specs.entries()) {
          // Uploader 0 becomes an account that is deleted (its pending pictures: admins only).
          await seed(s.by === 0 ? gone : (people[s.by] ?? null), `p${i}`, [s.year, s.month, s.day], s.status);
        }
        await sql`delete from users where id = ${gone.id}`.execute(one.db);
        await expectPagesCutTheList(people, [size]);
      }),
      { numRuns: 8 },
    );
  }, 120_000);
});
