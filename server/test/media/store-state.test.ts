import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessMessages } from '@site/contracts';
import { createDeps } from '../../src/app.ts';
import { startTestS3, type TestS3 } from '../../src/testing/s3-server.ts';
import { callerFor, createTestDb, createUser, testConfig, type TestDb } from '../helpers.ts';

/** The Admin page's media store line (pictures.mediaStore): where the media are, and whether the store answers now. */
describe('the media store state, for the Admin page', () => {
  let s3: TestS3;
  let handle: TestDb;
  const dirs: string[] = [];
  const dir = () => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), 'store-state-'));
    dirs.push(made);
    return made;
  };
  beforeAll(async () => {
    s3 = await startTestS3();
    handle = await createTestDb('pglite');
  });
  afterAll(async () => {
    await handle?.close();
    await s3?.close();
    for (const made of dirs) fs.rmSync(made, { recursive: true, force: true });
  });

  it("names the bucket, says when it stops answering and why, and answers again once it is back; the owner's only", async () => {
    const deps = createDeps(testConfig({ ...s3.env('state/'), DATA_DIR: dir() }), handle.db);
    const owner = callerFor(deps, await createUser(deps, 'owner', 3));
    const up = await owner.pictures.mediaStore();
    expect(up).toMatchObject({ ok: true, reason: null });
    expect(up.description).toContain('media');
    await expect(callerFor(deps, await createUser(deps, 'family', 2)).pictures.mediaStore()).rejects.toThrow(accessMessages.levelTooLow);

    await s3.stop();
    const down = await owner.pictures.mediaStore();
    expect(down.ok).toBe(false);
    expect(down.reason).toMatch(/\S/);
    expect(down.description).toBe(up.description);

    await s3.start();
    expect(await owner.pictures.mediaStore()).toMatchObject({ ok: true, reason: null });
  }, 60_000);

  it('names the local folder when media are on this server', async () => {
    const mediaDir = dir();
    const deps = createDeps(testConfig({ MEDIA_STORE: 'local', MEDIA_DIR: mediaDir, DATA_DIR: dir() }), handle.db);
    const owner = callerFor(deps, await createUser(deps, 'owner2', 3));
    expect(await owner.pictures.mediaStore()).toMatchObject({ ok: true, reason: null, description: `the local folder ${mediaDir}` });
  });
});
