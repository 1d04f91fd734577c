import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppDeps } from '../../src/deps.ts';
import * as pictures from '../../src/areas/pictures/pictures.service.ts';
import { cachedGalleryRead, galleryChanges } from '../../src/areas/pictures/pictures.page-cache.ts';
import * as repo from '../../src/areas/pictures/pictures.repository.ts';
import type { Database } from '../../src/db/database.ts';
import { createDeps } from '../../src/app.ts';
import type { Listening } from '../../src/db/notifications.ts';
import type { SessionUser } from '../../src/identity/session-user.ts';
import { watchDatabaseChanges } from '../../src/watch-changes.ts';
import { createTestDb, createUser, databases, testConfig, truncateAll, type TestDb } from '../helpers.ts';
import { pictureRow } from './pictures.fixtures.ts';

const silent = { warn: () => {} };
/** How long a notification may take to come back from PostgreSQL (PGlite delivers it in process). */
const NOTIFY_BOUND_MS = 2_000;

describe.each(databases)('the gallery page cache (%s)', (kind) => {
  let db: TestDb;
  let deps: AppDeps;
  let listening: Listening;
  let owner: SessionUser;
  let friend: SessionUser;

  beforeAll(async () => {
    db = await createTestDb(kind);
    deps = createDeps(testConfig(db.url ? { DATABASE_URL: db.url } : {}), db.db);
  }, 60_000);
  afterAll(async () => {
    await listening?.stop();
    await db?.close();
  });
  beforeEach(async () => {
    await listening?.stop();
    await truncateAll(db.db);
    owner = await createUser(deps, 'Owner', 3);
    friend = await createUser(deps, 'Friend', 1);
    for (const [caption, day] of [['first', 1], ['second', 2], ['third', 3]] as const) await repo.insertPicture(db.db, pictureRow(owner, caption, [2024, 5, day]));
    listening = watchDatabaseChanges(db, deps, silent);
    await listening.ready;
  });

  const captions = async (user: SessionUser) => (await pictures.page(deps, user, 24, 0)).pictures.map((p) => p.desc);

  it('answers a page asked again from memory, and forgets it when the pictures change by hand in SQL', async () => {
    const first = await pictures.page(deps, friend, 24, 0);
    expect(await pictures.page(deps, friend, 24, 0)).toBe(first);
    expect(await pictures.pageInfo(deps, friend, 24, 0)).toBe(await pictures.pageInfo(deps, friend, 24, 0));
    expect(first.pictures.map((p) => p.desc)).toEqual(['third', 'second', 'first']);

    await sql`update pictures set caption = 'renamed' where caption = 'second'`.execute(db.db);
    await vi.waitFor(async () => expect(await captions(friend)).toEqual(['third', 'renamed', 'first']), { timeout: NOTIFY_BOUND_MS, interval: 10 });
    // A thumbnail made (the worker) changes a page too.
    await sql`update pictures set thumb_status = 'ready', thumb_width = 400, thumb_height = 300`.execute(db.db);
    await vi.waitFor(async () => expect((await pictures.page(deps, friend, 24, 0)).pictures.map((p) => p.thumb)).toEqual(['ready', 'ready', 'ready']), {
      timeout: NOTIFY_BOUND_MS,
      interval: 10,
    });
  });

  it("shows a change made through this process on its very next read, and an uploader's new name", async () => {
    expect(await captions(friend)).toEqual(['third', 'second', 'first']);
    const [third] = (await pictures.page(deps, owner, 24, 0)).pictures;
    await pictures.update(deps, third?.id ?? 0, 'edited', { year: 2024, month: 5, day: 3 });
    expect(await captions(friend)).toEqual(['edited', 'second', 'first']);
    await pictures.remove(deps, third?.id ?? 0, false);
    expect(await captions(friend)).toEqual(['second', 'first']);

    await sql`update users set name = 'Owner Renamed' where id = ${owner.id}`.execute(db.db);
    await vi.waitFor(async () => expect((await pictures.page(deps, friend, 24, 0)).pictures[0]?.uploader).toBe('Owner Renamed'), {
      timeout: NOTIFY_BOUND_MS,
      interval: 10,
    });
  });

  it('keeps pending pictures to their uploader and admins', async () => {
    await repo.insertPicture(db.db, pictureRow(friend, 'mine', [2024, 5, 4], 'pending'));
    const other = await createUser(deps, 'Other', 1);
    await vi.waitFor(async () => expect(await captions(friend)).toEqual(['mine', 'third', 'second', 'first']), { timeout: NOTIFY_BOUND_MS, interval: 10 });
    expect(await captions(owner)).toEqual(['mine', 'third', 'second', 'first']);
    expect(await captions(other)).toEqual(['third', 'second', 'first']);
  });

  it('reads the database every time while it does not listen', async () => {
    await listening.stop();
    const first = await pictures.page(deps, friend, 24, 0);
    expect(await pictures.page(deps, friend, 24, 0)).not.toBe(first);
    await sql`update pictures set caption = 'renamed' where caption = 'second'`.execute(db.db);
    expect(await captions(friend)).toEqual(['third', 'renamed', 'first']);
  });
});

describe('the gallery page cache, bounded', () => {
  it('keeps at most 20,000 pictures: the oldest answers go first, a failed read is not kept', async () => {
    const db = {} as Database;
    galleryChanges(db).onListening(true);
    let reads = 0;
    const page = (key: string, pictures: number) =>
      cachedGalleryRead(
        db,
        key,
        async () => {
          reads += 1;
          return { key, pictures };
        },
        (answer) => answer.pictures,
      );
    await page('a', 12_000);
    await page('a', 12_000);
    expect(reads).toBe(1);
    await page('b', 7_000);
    await page('a', 12_000);
    expect(reads).toBe(2);
    await page('c', 5_000); // 24,000 held: 'a' goes
    await page('b', 7_000);
    await page('c', 5_000);
    expect(reads).toBe(3);
    await page('a', 12_000);
    expect(reads).toBe(4);

    const failing = () => cachedGalleryRead(db, 'broken', () => Promise.reject(new Error('database down')));
    await expect(failing()).rejects.toThrow('database down');
    await expect(failing()).rejects.toThrow('database down');
    let tries = 0;
    await cachedGalleryRead(db, 'broken', async () => ++tries);
    expect(tries).toBe(1);
  });
});
