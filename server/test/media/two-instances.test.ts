import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createDeps, type AppDeps } from '../../src/app.ts';
import { sweepUnreferenced } from '../../src/areas/pictures/pictures.startup.ts';
import { drainJobs } from '../../src/areas/pictures/pictures.worker.ts';
import { createDb, type Database } from '../../src/db/database.ts';
import { startTestS3, type TestS3 } from '../../src/testing/s3-server.ts';
import { cookieFor, createTestDb, storedFiles, testConfig, type TestDb, leftInTemp } from '../helpers.ts';
import { jpegWithExif, uploadVia } from '../pictures/pictures.fixtures.ts';

type Uploaded = { id: number; target: string };

/**
 * Two servers with nothing on a shared disk: each its own DATA_DIR (and so MEDIA_DIR, where only
 * temporary files go), one PostgreSQL, one bucket (a real S3 protocol server on 127.0.0.1).
 */
describe.runIf(process.env.TEST_DATABASE_URL)('two servers, one PostgreSQL and one bucket', () => {
  let s3: TestS3;
  let handle: TestDb;
  let secondDb: { db: Database; close: () => Promise<void> };
  const dirs: string[] = [];
  const servers: { deps: AppDeps; app: FastifyInstance }[] = [];
  /** Thumbnails, display sizes and posters each server put into the bucket. */
  const derivedBy: string[][] = [[], []];

  beforeAll(async () => {
    s3 = await startTestS3();
    handle = await createTestDb('postgres');
    secondDb = await createDb({ kind: 'postgres', url: handle.url ?? '' });
    const env = s3.env('family/');
    for (const [i, db] of [handle.db, secondDb.db].entries()) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `instance-${i}-`));
      dirs.push(dataDir);
      const deps = createDeps(testConfig({ ...env, DATA_DIR: dataDir }), db);
      // Counted, not changed: which server made which derived file.
      const put = deps.media.put.bind(deps.media);
      deps.media.put = (key, data) => (derivedBy[i]?.push(key), put(key, data));
      const app = await buildApp(deps);
      await app.ready();
      servers.push({ deps, app });
    }
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) await s.app.close();
    await secondDb?.close();
    await handle?.close();
    await s3?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an upload through one is viewed through the other, with ranges; each thumbnail is made once', async () => {
    const [one, two] = servers as [(typeof servers)[0], (typeof servers)[0]];
    expect(one.deps.config.dataDir).not.toBe(two.deps.config.dataDir);
    const cookie = await cookieFor(one.deps, 2);
    const photos = await Promise.all([1, 2, 3, 4].map((n) => jpegWithExif(`2021:07:1${n} 10:20:30`, { width: 1600 + n, height: 1200 })));
    const uploaded: Uploaded[] = [];
    for (const [n, data] of photos.entries()) {
      const res = await uploadVia((n % 2 === 0 ? one : two).app, cookie, { name: `p${n}.jpg`, data });
      expect(res.statusCode, res.body).toBe(200);
      uploaded.push(res.json<Uploaded>());
    }
    // Both servers' workers at once on the one queue (their own loops run too, woken by the uploads).
    await Promise.all([drainJobs(one.deps), drainJobs(two.deps)]);

    for (const [n, picture] of uploaded.entries()) {
      const other = n % 2 === 0 ? two : one;
      const original = await other.app.inject({ url: `/private/pictures/${picture.target}`, headers: { cookie } });
      expect([original.statusCode, original.headers['cache-control']]).toEqual([200, 'private, no-store']);
      expect(original.rawPayload.equals(photos[n] ?? Buffer.alloc(0))).toBe(true);
      const part = await other.app.inject({ url: `/private/pictures/${picture.target}`, headers: { cookie, range: 'bytes=100-199' } });
      expect([part.statusCode, part.headers['content-range']]).toEqual([206, `bytes 100-199/${photos[n]?.length}`]);
      expect(part.rawPayload.equals(photos[n]?.subarray(100, 200) ?? Buffer.alloc(0))).toBe(true);
      const thumb = await other.app.inject({ url: `/private/pictures/${picture.target.slice(0, 32)}.thumb.webp`, headers: { cookie } });
      expect([thumb.statusCode, thumb.headers['content-type']]).toEqual([200, 'image/webp']);
    }
    const stems = uploaded.map((p) => p.target.slice(0, 32));
    const thumbs = [...(derivedBy[0] ?? []), ...(derivedBy[1] ?? [])].filter((key) => key.endsWith('.thumb.webp'));
    expect(thumbs.sort()).toEqual(stems.map((stem) => `pictures/${stem}.thumb.webp`).sort());
    // Nothing of the pictures is on either server's disk: only their (empty) temporary folders.
    for (const s of servers) expect(fs.readdirSync(s.deps.config.mediaDir)).toEqual(['.tmp']);
    for (const s of servers) expect(leftInTemp(s.deps.config.mediaDir)).toEqual([]);

    // The orphan sweep reads the bucket: a file no row names goes, every picture's files stay.
    const orphan = `${'a'.repeat(32)}.jpg`;
    await two.deps.media.put(`pictures/${orphan}`, Buffer.from('left by a crash'));
    const before = await storedFiles(one.deps, 'pictures');
    expect(before).toContain(orphan);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the bucket's times are in whole seconds
    expect(await sweepUnreferenced(one.deps, 1)).toBe(1);
    expect(await storedFiles(two.deps, 'pictures')).toEqual(before.filter((f) => f !== orphan));
  });
});
