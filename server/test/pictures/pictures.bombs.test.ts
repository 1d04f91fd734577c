import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pictureMessages, type UploadAnswer } from '@site/contracts';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { CHILD_TIMEOUT_MS, ChildFailed, JOB_TIME_BUDGETS_MS, childStats, runLimited, timeBudgetOf } from '../../src/areas/pictures/pictures.decode.ts';
import type { Executor } from '../../src/db/database.ts';
import { sql } from 'kysely';
import * as repo from '../../src/areas/pictures/pictures.repository.ts';
import { QUEUE_WORK_SHARE_MS } from '../../src/areas/pictures/pictures.repository.ts';
import { drainJobs } from '../../src/areas/pictures/pictures.worker.ts';
import { cookieFor, createUser, databases, emptyMediaFolder, useTestServer } from '../helpers.ts';
import { pictureRow, png, tempMediaDir, uploadVia } from './pictures.fixtures.ts';
import { treeRss } from '../../src/testing/process-memory.ts';

type Card = { id: number; thumb: string; previewTooLarge: boolean; previewNeeds: string | null };
type Page = { result: { data: { pictures: Card[] } } };

const MB = 1024 * 1024;
/** The bound: the server and its children together grow by at most this while bombs are uploaded. */
const BOUND = 400 * MB;

/**
 * Picture bombs made like the probe's: a flat grey image of 8000 x 8000 or 12000 x 12000 pixels,
 * AV1-encoded by sharp into a file of 1-2 KB. Made in a child process, so encoding them leaves
 * nothing in this process's memory, which the test measures.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'picture-bombs-'));
execFileSync(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `const sharp = (await import(${JSON.stringify(import.meta.resolve('sharp'))})).default;
     for (const n of [8000, 12000]) {
       await sharp({ create: { width: n, height: n, channels: 3, background: '#808080' } }).avif({ effort: 0, quality: 30 }).toFile(${JSON.stringify(dir)} + '/' + n + '.avif');
     }`,
  ],
  { stdio: 'inherit' },
);
const avif8000 = fs.readFileSync(path.join(dir, '8000.avif'));
const avif12000 = fs.readFileSync(path.join(dir, '12000.avif'));
/** AV1 data branded and named as a HEIC: file-type and libvips both take it for HEVC. */
const av1AsHeic = Buffer.from(avif8000);
for (let at = 8; at < av1AsHeic.readUInt32BE(0); at += 4) if (av1AsHeic.toString('latin1', at, at + 4) === 'avif') av1AsHeic.write('heic', at, 'latin1');

/**
 * An SVG of a few kilobytes whose stacked filters (turbulence, blur, dilation over a 4000 px square)
 * hold libvips for seconds to a minute, as the probe did; `seed` makes each one's bytes its own.
 * Far past the 1.5 s budget the test gives SVGs on any machine: 8 stages rendered in 0.96 s on a fast
 * quiet one (and the test saw previews made), 24 in 2.8 s; the work past the budget is never done (the
 * decoder is stopped there), so 48 stages cost no more time than 8.
 */
function slowSvg(seed: number): Buffer {
  let filters = '';
  for (let i = 0; i < 48; i++) {
    filters += `<feTurbulence baseFrequency="0.0${(i % 9) + 1}${seed}" numOctaves="8" result="t${i}"/><feGaussianBlur in="t${i}" stdDeviation="40" result="b${i}"/><feMorphology in="b${i}" operator="dilate" radius="30"/>`;
  }
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000"><filter id="f" x="0" y="0" width="1" height="1">${filters}</filter><rect width="4000" height="4000" fill="red" filter="url(#f)"/></svg>`);
}

describe.each(databases)('pictures: picture bombs (%s)', (kind) => {
  const mediaDir = tempMediaDir();
  const s = useTestServer(kind, { MEDIA_DIR: mediaDir });
  afterEach(() => drainJobs(s.deps));
  beforeEach(() => emptyMediaFolder(s.deps, 'pictures'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const get = (url: string, cookie: string) => s.app.inject({ method: 'GET', url, headers: { cookie } });
  const pageOf = async (cookie: string) => {
    const res = await get(`/trpc/pictures.page?input=${encodeURIComponent(JSON.stringify({ type: 500, index: 0 }))}`, cookie);
    return { status: res.statusCode, pictures: res.json<Page>().result.data.pictures };
  };

  it('keeps the server and its children within 400 MB while a friend uploads AVIF bombs, and shows them as too large to preview', async () => {
    const friend = await cookieFor(s.deps, 1, 'friend');
    const family = await cookieFor(s.deps, 2, 'family');
    // Warm up: the first upload and decode load what every later one uses.
    await uploadVia(s.app, family, { name: 'warm.png', data: await png() }, { date: '2020' });
    await drainJobs(s.deps);

    const baseline = treeRss(process.pid);
    let peak = { own: baseline.own, total: baseline.own + baseline.children };
    const sampler = setInterval(() => {
      const now = treeRss(process.pid);
      peak = { own: Math.max(peak.own, now.own), total: Math.max(peak.total, now.own + now.children) };
    }, 10);
    const peakBefore = childStats.maxPeakBytes;
    childStats.maxPeakBytes = 0;
    const bombs = [
      { name: 'bomb-8000.avif', data: avif8000 },
      { name: 'bomb-12000.avif', data: avif12000 },
      { name: 'IMG_0001.heic', data: av1AsHeic },
    ];
    let answers: UploadAnswer[];
    let pictures: Card[];
    try {
      answers = [];
      for (const bomb of bombs) {
        expect(bomb.data.length).toBeLessThan(4096);
        const res = await uploadVia(s.app, friend, bomb, { date: '2024' });
        expect(res.statusCode, bomb.name).toBe(200);
        answers.push(res.json<UploadAnswer>());
      }
      // The site keeps answering while they are worked on.
      const working = drainJobs(s.deps, 120_000);
      expect((await pageOf(family)).status).toBe(200);
      await working;
      pictures = (await pageOf(friend)).pictures;
    } finally {
      clearInterval(sampler);
    }
    const childPeak = childStats.maxPeakBytes;
    childStats.maxPeakBytes = Math.max(peakBefore, childPeak);
    // Sampled: the server and every child at the same moment. Bounded: the server's own peak growth
    // plus the largest peak a child reported (a child may live between two samples).
    expect(peak.total - (baseline.own + baseline.children)).toBeLessThan(BOUND);
    expect(peak.own - baseline.own + childPeak).toBeLessThan(BOUND);

    expect(answers.map((a) => a.fileType)).toEqual(['avif', 'avif', 'heic']);
    for (const answer of answers) {
      expect(pictures.find((p) => p.id === answer.id)).toMatchObject({ thumb: 'none', previewTooLarge: true, previewNeeds: null });
      // Kept: the original downloads byte for byte to its uploader, and is not kept by the browser.
      const original = await get(`/private/pictures/${answer.target}`, friend);
      expect(original.statusCode).toBe(200);
      expect(original.headers['cache-control']).toBe('private, no-store');
      expect(original.rawPayload.equals(bombs[answers.indexOf(answer)]?.data ?? Buffer.alloc(0))).toBe(true);
      const stem = answer.target.slice(0, 32);
      expect((await get(`/private/pictures/${stem}.thumb.webp`, friend)).statusCode).toBe(404);
    }
    expect(pictureMessages.tooLargeToPreview).toBe('No preview: the picture is too large to preview');
  }, 240_000);

  it('runs every decoding child under a hard memory limit: one that asks for more is refused by the kernel', async () => {
    const greedy = 'const b = Buffer.alloc(600 * 1024 * 1024); b.fill(1); console.log(b[b.length - 1]);';
    await expect(runLimited(process.execPath, ['-e', greedy], 60_000)).rejects.toBeInstanceOf(ChildFailed);
    // The same child within the limit runs.
    await expect(runLimited(process.execPath, ['-e', greedy.replace('600', '50')], 60_000)).resolves.toBe('1\n');
  });

  /**
   * The order in which the queue takes the jobs of `queued` (who, how many, in that order), claimed
   * one after another; `finish` ends each job before the next claim (as the worker does).
   */
  async function queueOrder(queued: [who: { id: number; name: string } | { link: number; name: string }, n: number][], finish: boolean, before?: (trx: Executor) => Promise<void>) {
    return s.db.transaction().execute(async (trx) => {
      const ids: Record<number, string> = {};
      // Nobody served yet.
      await sql`delete from picture_queue_turns`.execute(trx);
      for (const [who, n] of queued) {
        for (let i = 1; i <= n; i++) {
          const row = await repo.insertPicture(trx, pictureRow('id' in who ? who : null, `${who.name} ${i}`, [2024, 1, 1], 'pending'));
          if ('link' in who) await trx.insertInto('picture_guests').values({ picture_id: row.id, share_id: who.link, guest_name: 'Aunt May' }).execute();
          ids[row.id] = `${who.name} ${i}`;
        }
      }
      await before?.(trx);
      // Inside this transaction, so the app's own worker cannot take any of them meanwhile.
      await sql`update picture_jobs set run_after = now()`.execute(trx);
      const taken: string[] = [];
      for (;;) {
        const job = await repo.claimJob(trx, 60);
        if (!job) break;
        taken.push(ids[job.picture_id] ?? '?');
        if (finish) await repo.finishJob(trx, job.id);
      }
      await sql`delete from picture_jobs`.execute(trx);
      return taken;
    });
  }

  it("takes the queue fairly: one member's many files wait behind each other, not in front of another member's one", async () => {
    const [ann, bob, cy] = await Promise.all([createUser(s.deps, 'ann', 1), createUser(s.deps, 'bob', 1), createUser(s.deps, 'cy', 1)]);
    // Ann's large HEICs arrive first, then Bob's and Cy's one each.
    const queued: [typeof ann, number][] = [[ann, 4], [bob, 1], [cy, 1]];
    expect(await queueOrder(queued, false)).toEqual(['ann 1', 'bob 1', 'cy 1', 'ann 2', 'ann 3', 'ann 4']);
    // The same when each job ends before the next is taken: the round-robin holds after each job
    // (counting turns among the jobs left gave Ann the first turn again every time).
    expect(await queueOrder(queued, true)).toEqual(['ann 1', 'bob 1', 'cy 1', 'ann 2', 'ann 3', 'ann 4']);
  });

  it('counts the guests of each upload link as one more member, and puts one who used the decoder a long time behind the others', async () => {
    const [ann, bob] = await Promise.all([createUser(s.deps, 'ann', 2), createUser(s.deps, 'bob', 1)]);
    const link = async (trx: Executor) =>
      (
        await trx
          .insertInto('album_shares')
          .values({ token_hash: randomBytes(32).toString('hex'), kind: 'upload', album_id: null, created_by: ann.id, expires_at: null, password_hash: null, revoked_at: null })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const [wedding, party] = await s.db.transaction().execute(async (trx) => [await link(trx), await link(trx)]);
    expect(
      await queueOrder(
        [
          [{ link: wedding, name: 'wedding' }, 3],
          [ann, 2],
          [{ link: party, name: 'party' }, 1],
          [bob, 1],
        ],
        true,
      ),
    ).toEqual(['wedding 1', 'ann 1', 'party 1', 'bob 1', 'wedding 2', 'ann 2', 'wedding 3']);
    // Ann's jobs took more than her share of the decoder lately: Bob's go first, hers after.
    const order = await queueOrder([[ann, 2], [bob, 2]], true, async (trx) => {
      await trx
        .insertInto('picture_queue_turns')
        .values({ owner: `user:${ann.id}`, served_at: new Date(Date.now() - 3_600_000), work_ms: QUEUE_WORK_SHARE_MS + 1, window_started: new Date() })
        .execute();
    });
    expect(order).toEqual(['bob 1', 'bob 2', 'ann 1', 'ann 2']);
  });

  it("previews a family member's JPEG within a minute while a friend's six slow SVGs wait, each cut at its format's time budget", async () => {
    // The real budget for an SVG is seconds, not a minute; shortened here so the test takes seconds.
    expect(timeBudgetOf('svg')).toBeLessThanOrEqual(10_000);
    expect(timeBudgetOf('jpg')).toBe(CHILD_TIMEOUT_MS);
    const budget = timeBudgetOf('svg');
    JOB_TIME_BUDGETS_MS.svg = 1_500;
    try {
      const friend = await cookieFor(s.deps, 1, 'friend');
      const family = await cookieFor(s.deps, 2, 'family');
      const jpeg = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#3366aa' } }).jpeg().toBuffer();
      const started = performance.now();
      const uploads = await Promise.all(Array.from({ length: 6 }, (_, i) => uploadVia(s.app, friend, { name: `slow${i}.svg`, data: slowSvg(i) }, { caption: `slow ${i}` })));
      expect(uploads.map((res) => res.statusCode)).toEqual(Array(6).fill(200));
      const sent = await uploadVia(s.app, family, { name: 'lake.jpg', data: jpeg }, { caption: 'Lake' });
      expect(sent.statusCode).toBe(200);
      const { id } = sent.json<{ id: number }>();
      const statusOf = async () => {
        const rows = await s.db.selectFrom('pictures').select(['id', 'thumb_status']).execute();
        return { jpeg: rows.find((r) => r.id === id)?.thumb_status, slowDone: rows.filter((r) => r.id !== id && r.thumb_status !== 'pending').length };
      };
      // The queue works on the friend's files while nobody else waits; from the JPEG's arrival on, it alternates.
      const atArrival = (await statusOf()).slowDone;
      let now = await statusOf();
      while (now.jpeg === 'pending' && performance.now() - started < 60_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        now = await statusOf();
      }
      const took = performance.now() - started;
      expect(now.jpeg).toBe('ready');
      expect(took).toBeLessThan(60_000);
      // Not after all six: at most the one the decoder was on when the JPEG came.
      expect(atArrival).toBeLessThan(5);
      expect(now.slowDone - atArrival).toBeLessThanOrEqual(1);
      // The slow ones are cut at their budget: no preview, and the queue goes on.
      await drainJobs(s.deps, 60_000);
      const slow = await s.db.selectFrom('pictures').select('thumb_status').where('id', '!=', id).execute();
      expect(slow.map((r) => r.thumb_status)).toEqual(Array(6).fill('none'));
    } finally {
      JOB_TIME_BUDGETS_MS.svg = budget;
    }
  }, 120_000);
});
