import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UploadAnswer } from '@site/contracts';
import { originalKey } from '../../src/areas/pictures/pictures.files.ts';
import { mediaCheck, startUp } from '../../src/areas/pictures/pictures.startup.ts';
import { drainJobs } from '../../src/areas/pictures/pictures.worker.ts';
import { callerFor, cookieFor, createUser, databases, useTestServer } from '../helpers.ts';
import { filesUnder, pictureRow, png, tempMediaDir, uploadVia } from './pictures.fixtures.ts';

const HOUR_AGO = new Date(Date.now() - 60 * 60 * 1000);

describe.each(databases)('pictures: what a server checks and sweeps at start (%s)', (kind) => {
  const mediaDir = tempMediaDir();
  // On the local disk whatever TEST_MEDIA_STORE says: the sweep's ages are set on files (a bucket's objects cannot be backdated).
  const s = useTestServer(kind, { MEDIA_DIR: mediaDir, MEDIA_STORE: 'local' });
  afterEach(() => drainJobs(s.deps));
  beforeEach(() => fs.rmSync(path.join(mediaDir, 'pictures'), { recursive: true, force: true }));
  const stored = () => filesUnder(path.join(mediaDir, 'pictures'));
  /** Puts a file under pictures/ as a crash would leave it, `modified` ago. */
  const leave = (name: string, modified: Date, data = Buffer.from('x')) => {
    const file = path.join(mediaDir, 'pictures', name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, data);
    fs.utimesSync(file, modified, modified);
  };

  it('removes stale files no row names, and keeps fresh ones, files with rows and names that are not ours', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const kept = (await uploadVia(s.app, cookie, { name: 'a.png', data: await png() }, { date: '2020' })).json<UploadAnswer>();
    await drainJobs(s.deps);
    const keptFiles = stored();
    for (const f of keptFiles) fs.utimesSync(path.join(mediaDir, 'pictures', f), HOUR_AGO, HOUR_AGO);
    const orphan = 'a'.repeat(32);
    leave(`${orphan}.jpg`, HOUR_AGO);
    leave(`${orphan}.thumb.webp`, HOUR_AGO);
    // Renamed into place a moment ago: perhaps another instance's upload that is committing right now.
    leave(`${'b'.repeat(32)}.png`, new Date());
    leave('README.txt', HOUR_AGO);
    const staleTemp = path.join(mediaDir, '.tmp', 'c'.repeat(24));
    fs.writeFileSync(staleTemp, 'half an upload');
    fs.utimesSync(staleTemp, HOUR_AGO, HOUR_AGO);

    await startUp(s.deps);
    expect(stored()).toEqual([...keptFiles, `${'b'.repeat(32)}.png`, 'README.txt'].sort());
    expect(kept.target).toMatch(/\.png$/);
    await s.deps.media.sweepTemporary(5 * 60 * 1000);
    expect(fs.existsSync(staleTemp)).toBe(false);
  });

  it('finds originals the database names that this MEDIA_DIR lacks, and shows them to admins', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const here = pictureRow(owner, 'here', [2020, 1, 1]);
    const away = pictureRow(owner, 'away', [2020, 1, 2]);
    await s.db.insertInto('pictures').values([here, away]).execute();
    await s.deps.media.put(originalKey(here.stem, 'jpg'), Buffer.from('jpeg bytes'));
    await startUp(s.deps);
    expect(mediaCheck(s.deps)).toMatchObject({ checked: 2, missing: 1, examples: [`${away.stem}.jpg`], mediaDir });
    expect(await callerFor(s.deps, owner).pictures.mediaCheck()).toMatchObject({ missing: 1 });
    await s.deps.media.put(originalKey(away.stem, 'jpg'), Buffer.from('more jpeg bytes'));
    await startUp(s.deps);
    expect(mediaCheck(s.deps)).toMatchObject({ checked: 2, missing: 0, examples: [] });
  });

  it('hashes pictures stored before hashes were kept, so their bytes are found as duplicates', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const bytes = await png({ width: 50, height: 50 }, '#abcdef');
    const old = pictureRow(owner, 'old', [2019, 5, 5]);
    const { id } = await s.db.insertInto('pictures').values(old).returning('id').executeTakeFirstOrThrow();
    await s.deps.media.put(originalKey(old.stem, 'jpg'), bytes);
    await startUp(s.deps);
    const cookie = await cookieFor(s.deps, 2);
    const again = await uploadVia(s.app, cookie, { name: 'again.png', data: bytes }, {});
    expect(again.json()).toMatchObject({ id, duplicate: true, message: 'Already in the gallery' });
  });
});
