/**
 * Pictures benchmarks (issue 11). Prints numbers; asserts nothing.   Run: npm run bench:pictures
 *
 * 1. Paging with 100,000 pictures (PGlite): get_all (pictures.pageInfo) and a page of get
 *    (pictures.get) for month, year and 24-per-page types — p50/p99 in ms (goal p99 <= 5 ms) —
 *    and the one-off cost of reading the counts again after a change.
 * 2. Uploading a 1 GiB file (BENCH_UPLOAD_MB to change) to the real server in a child process over
 *    127.0.0.1: the server's RSS growth (goal <= 64 MB) and MB/s next to a plain stream copy of a
 *    file of the same size on the same disk (goal >= 0.5 of the copy).
 * 3. Thumbnails per second for 12-megapixel JPEGs (sharp: rotate, 400 px WebP, 1600 px display).
 * 4. HEIC-to-display conversions per second for iPhone-size (12 MP) HEVC photos (needs heif-enc).
 * 5. The peak RSS one derivation of a 14,000 x 14,000 PNG adds (a child process's VmHWM).
 * 6. A gallery page under load over HTTP next to /api/login_status (gallery-load.ts).
 * 7. A run of 169 varied files made like real ones (JPEGs with EXIF, PNG, HEIC, big-endian TIFF with
 *    its directory at the end, MP4 video; BENCH_RUN_FILES to change) uploaded one after another to the
 *    real server with its thumbnail worker: the peak RSS of the server and its children together
 *    (sampled from /proc; goal < 600 MB) and the largest peak one decoding child reported.
 * 8. Search with 100,000 pictures (PGlite, in process): pictures.search for a member, p50/p99 in ms for
 *    a common word, a rare one, a year, a month and year, two words, a town (goal p99 <= 50 ms), and
 *    pictures.suggest.
 * Name sections to run only those: npm run bench:pictures -- paging gallery (paging, upload, thumbnails,
 * heic, png, gallery, run, search).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import sharp from 'sharp';
import { buildApp, createDeps } from '@site/server/app';
import { loadConfig } from '@site/server/config';
import { createDb } from '@site/server/db/database';
import { migrateToLatest } from '@site/server/migrations';
import { insertUser } from '@site/server/identity/users.repository';
import { serverAreas } from '@site/server/areas/index';
import * as pictures from '@site/server/areas/pictures/pictures.service';
import * as searching from '@site/server/areas/pictures/pictures.search';
import { deriveFiles } from '@site/server/areas/pictures/pictures.media';
import { galleryCounts } from '@site/server/areas/pictures/pictures.repository';
import { createLocalStorage } from '@site/server/media/index';
import { lines, openBenchSite, serveUntilStdinEnds, answerMemory } from './bench-site.ts';
import { galleryUnderLoad } from './gallery-load.ts';
import { treeRss } from '@site/server/testing/process-memory';
import { buildLabel, serverProcessArgs } from './server-process.ts';
import { postUpload, unique } from './upload-files.ts';

const PICTURES = Number(process.env.BENCH_PICTURES ?? 100_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
const THUMBS = Number(process.env.BENCH_THUMBS ?? 6);
const HEICS = Number(process.env.BENCH_HEICS ?? 4);
const RUN_FILES = Number(process.env.BENCH_RUN_FILES ?? 169);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const fmt = (n: number) => n.toFixed(2);

async function timeCalls(label: string, call: (i: number) => Promise<unknown>, calls = CALLS) {
  for (let i = 0; i < 50; i++) await call(i); // warm up
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await call(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(`  ${label.padEnd(34)} p50 ${fmt(pct(times, 50))} ms   p99 ${fmt(pct(times, 99))} ms`);
}

async function paging() {
  console.log(`\n1. Paging with ${PICTURES.toLocaleString('en')} pictures (PGlite in memory, ${CALLS} calls each)`);
  const handle = await createDb({ kind: 'pglite-memory' });
  await migrateToLatest(handle.db);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pictures-'));
  const deps = createDeps(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), handle.db);
  const owner = await insertUser(handle.db, { name: 'bench', passwordHash: 'x', level: 3 });
  const friend = await insertUser(handle.db, { name: 'friend', passwordHash: 'x', level: 1 });
  // Dates over 25 years, about 1 in 20 with an unknown day, 1 in 50 with an unknown month; 1 in 500 pending.
  await sql`
    insert into pictures (stem, file_type, mime, size_bytes, caption, year, month, day, status, uploaded_by, thumb_status)
    select md5(i::text), 'jpg', 'image/jpeg', 1000, 'Picture ' || i,
      2000 + (i % 25),
      case when i % 50 = 0 then 0 else 1 + (i / 25) % 12 end,
      case when i % 50 = 0 or i % 20 = 0 then 0 else 1 + (i / 300) % 28 end,
      case when i % 500 = 0 then 'pending' else 'approved' end,
      case when i % 500 = 0 then ${sql.lit(friend.id)} else ${sql.lit(owner.id)} end,
      'ready'
    from generate_series(1, ${sql.lit(PICTURES)}) as i`.execute(handle.db);
  await sql`insert into picture_days (year, month, day, approved)
    select year, month, day, count(*) from pictures where status = 'approved' group by year, month, day`.execute(handle.db);
  await sql`analyze`.execute(handle.db);
  const viewer = { id: friend.id, name: 'friend', level: 1 as const };
  const months = (await pictures.pageInfo(deps, viewer, 'month', 0)).pageCount;
  const sizedPages = (await pictures.pageInfo(deps, viewer, 24, 0)).pageCount;
  console.log(`  (${months} month pages, ${sizedPages} pages of 24)`);
  // For scale on a shared machine: the cheapest possible round trip to the same database.
  await timeCalls('(baseline: select 1)', () => sql`select 1`.execute(handle.db));
  await timeCalls('get_all  month', (i) => pictures.pageInfo(deps, viewer, 'month', i % months));
  await timeCalls('get_all  24 per page', (i) => pictures.pageInfo(deps, viewer, 24, (i * 97) % sizedPages));
  await timeCalls('get      month (pic 0-9)', (i) => pictures.pictureAt(deps, viewer, 'month', i % months, i % 10));
  await timeCalls('get      year (pic 0-99)', (i) => pictures.pictureAt(deps, viewer, 'year', i % 25, i % 100));
  await timeCalls('get      24 per page (pic 0-23)', (i) => pictures.pictureAt(deps, viewer, 24, (i * 97) % sizedPages, i % 24));
  await timeCalls('page     24 per page (whole page)', (i) => pictures.page(deps, viewer, 24, (i * 97) % sizedPages));
  // Each process keeps the counts in memory; after any change to the pictures its next call reads them
  // again. This times that counts query alone (the layout built from them and the page's rows come on top).
  await timeCalls('(counts query after a change)', () => galleryCounts(handle.db), Math.min(CALLS, 100));
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

/** 60 words captions are made of: each picture gets three, so a word is in about 1 in 20 pictures. */
const CAPTION_WORDS = ['beach', 'dog', 'cake', 'birthday', 'garden', 'snow', 'grandma', 'school', 'picnic', 'wedding', 'cat', 'boat',
  'castle', 'forest', 'train', 'bike', 'river', 'party', 'church', 'harbour', 'mountain', 'lake', 'market', 'museum', 'bridge', 'sunset',
  'camping', 'football', 'concert', 'holiday', 'christmas', 'easter', 'zoo', 'farm', 'horse', 'kitchen', 'dinner', 'breakfast', 'baby',
  'swimming', 'walk', 'kite', 'tree', 'flowers', 'car', 'bus', 'airport', 'hotel', 'island', 'village', 'city', 'park', 'rain', 'fire',
  'pumpkin', 'costume', 'graduation', 'cousins', 'uncle', 'auntie'];
const TOWNS = [['Truro', 'United Kingdom'], ['Penzance', 'United Kingdom'], ['Paris', 'France'], ['Lyon', 'France'], ['Berlin', 'Germany'],
  ['List', 'Germany'], ['Beijing', 'China'], ['Sydney', 'Australia'], ['Madrid', 'Spain'], ['Rome', 'Italy']];

async function searchBench() {
  console.log(`\n8. Search with ${PICTURES.toLocaleString('en')} pictures (PGlite in memory, in process, ${CALLS} calls each)`);
  const handle = await createDb({ kind: 'pglite-memory' });
  await migrateToLatest(handle.db);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-search-'));
  const deps = createDeps(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), handle.db);
  const owner = await insertUser(handle.db, { name: 'bench', passwordHash: 'x', level: 3 });
  const friend = await insertUser(handle.db, { name: 'friend', passwordHash: 'x', level: 1 });
  const words = sql.lit(`{${CAPTION_WORDS.join(',')}}`);
  const started = performance.now();
  // Dates over 25 years; 1 in 500 pending (not the searcher's); a place for 3 in 10; a comment for 1 in 10.
  // Filled with the documents' row triggers off, then every document made in one statement (as the migration does).
  for (const table of ['pictures', 'picture_places', 'picture_comments']) await sql`alter table ${sql.table(table)} disable trigger ${sql.id(`${table}_search_refresh`)}`.execute(handle.db);
  await sql`
    insert into pictures (stem, file_type, mime, size_bytes, caption, year, month, day, status, uploaded_by, thumb_status)
    select md5(i::text), 'jpg', 'image/jpeg', 1000,
      initcap(w[1 + i % 60]) || ' and ' || w[1 + (i / 60) % 60] || ', ' || w[1 + (i * 7 + 3) % 60] || ' ' || i,
      2000 + (i % 25),
      case when i % 50 = 0 then 0 else 1 + (i / 25) % 12 end,
      case when i % 50 = 0 or i % 20 = 0 then 0 else 1 + (i / 300) % 28 end,
      case when i % 500 = 0 then 'pending' else 'approved' end,
      ${sql.lit(owner.id)},
      'ready'
    from generate_series(1, ${sql.lit(PICTURES)}) as i, (select ${words}::text[] as w) as vocabulary`.execute(handle.db);
  for (const [n, [town, country]] of TOWNS.entries()) {
    await sql`insert into picture_places (picture_id, lat, lon, town, country)
      select id, 50, 0, ${town}, ${country} from pictures where id % 10 < 3 and id % ${TOWNS.length} = ${n}`.execute(handle.db);
  }
  await sql`insert into picture_comments (picture_id, user_id, text) select id, ${owner.id}, 'Lovely one of ' || (case when id % 3 = 0 then 'Grandma' else 'the kids' end)
    from pictures where id % 10 = 0`.execute(handle.db);
  for (const table of ['pictures', 'picture_places', 'picture_comments']) await sql`alter table ${sql.table(table)} enable trigger ${sql.id(`${table}_search_refresh`)}`.execute(handle.db);
  await sql`select picture_search_refresh(array(select id from pictures))`.execute(handle.db);
  await sql`analyze`.execute(handle.db);
  const size = await sql<{ documents: string; index: string }>`select pg_size_pretty(pg_table_size('picture_search')) as documents,
    pg_size_pretty(pg_relation_size('picture_search_document')) as index`.execute(handle.db);
  console.log(`  (filled in ${fmt((performance.now() - started) / 1000)} s, documents made in one statement; documents ${size.rows[0]?.documents}, GIN index ${size.rows[0]?.index})`);
  const viewer = { id: friend.id, name: 'friend', level: 1 as const };
  for (const q of ['beach', 'kite sunset', 'grandma', '2019', 'May 2021', 'dog 2019', 'Truro', 'france beach 2010', 'nothingmatches', 'Truroo']) {
    const first = await searching.search(deps, viewer, { q });
    await timeCalls(`search "${q}" (${first.items.length}${first.nextCursor ? '+' : ''})`, () => searching.search(deps, viewer, { q }));
  }
  const page = await searching.search(deps, viewer, { q: 'beach' });
  await timeCalls('search "beach", 2nd page (cursor)', () => searching.search(deps, viewer, { q: 'beach', cursor: page.nextCursor ?? undefined }));
  for (const q of ['tr', 'ma', 'may 20', '20']) await timeCalls(`suggest "${q}"`, () => searching.suggest(deps, viewer, { q }));
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Child process: the real server on a fresh PGlite, reporting its RSS (peak since the mark). Without
 * the background worker (the upload bench measures the upload path only), or with it (`withWorker`).
 */
async function serve(withWorker = false) {
  const site = await openBenchSite('bench-upload-', { MEDIA_MAX_BYTES: String(4 * 1024 ** 3) });
  const { worker: _worker, ...picturesWithoutWorker } = serverAreas.pictures;
  const real = await buildApp(site.deps, { areas: { ...serverAreas, pictures: withWorker ? serverAreas.pictures : picturesWithoutWorker } });
  const base = await real.listen({ port: 0, host: '127.0.0.1' });
  answerMemory({ base, cookie: site.cookie, dir: site.dir }, (line) => {
    if (line.startsWith('mem')) {
      // Where the server's resident memory is: V8's heap, ArrayBuffers (PGlite's WebAssembly memory
      // among them), and the rest (native: libvips, malloc arenas, code).
      const { rss, heapTotal, external, arrayBuffers } = process.memoryUsage();
      const anon = statusKb('RssAnon') * 1024;
      process.stdout.write(`${JSON.stringify({ rss, heapTotal, external, arrayBuffers, anon })}\n`);
      return true;
    }
    if (!line.startsWith('jobs')) return false;
    void site.handle.db
      .selectFrom('picture_jobs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
      .then(async ({ n }) => {
        const decode = (await import('@site/server/areas/pictures/pictures.decode').catch(() => null)) as {
          childStats?: { runs: number; maxPeakBytes: number };
        } | null;
        process.stdout.write(`${JSON.stringify({ jobs: Number(n), children: decode?.childStats ?? null })}\n`);
      });
    return true;
  });
  serveUntilStdinEnds(site, () => real.close());
}

/** A JPEG's first bytes, then `mb` MiB in 1 MiB chunks, as a multipart body streamed without a copy in memory. */
function body(mb: number, boundary: string) {
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="date"\r\n\r\n2024-01-01\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(1024 * 1024, 0x5a);
  const first = Buffer.from(chunk);
  first.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00], 0);
  async function* gen() {
    yield head;
    yield first;
    for (let i = 1; i < mb; i++) yield chunk;
    yield tail;
  }
  return { stream: Readable.from(gen()), length: head.length + mb * chunk.length + tail.length };
}

async function upload() {
  console.log(`\n2. Uploading ${UPLOAD_MB} MiB to the server (child process, 127.0.0.1)`);
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [...process.execArgv, '--expose-gc', self, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const next = lines(child.stdout);
  const { base, cookie, dir } = JSON.parse(await next()) as { base: string; cookie: string; dir: string };
  child.stdin.write('mark\n');
  const before = (JSON.parse(await next()) as { rss: number }).rss;
  const boundary = 'benchBoundary7MA4YWxkTrZu0gW';
  const { stream, length } = body(UPLOAD_MB, boundary);
  const url = new URL('/api/pictures/upload', base);
  const start = performance.now();
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    stream.pipe(req);
  });
  const seconds = (performance.now() - start) / 1000;
  child.stdin.write('peak\n');
  const peak = (JSON.parse(await next()) as { rss: number }).rss;
  const uploadRate = UPLOAD_MB / seconds;

  // A plain stream copy of a file of the same size on the same disk.
  const source = path.join(dir, 'copy-source.bin');
  const target = path.join(dir, 'copy-target.bin');
  await pipeline(body(UPLOAD_MB, boundary).stream, fs.createWriteStream(source));
  const copyStart = performance.now();
  await pipeline(fs.createReadStream(source), fs.createWriteStream(target));
  const copyRate = UPLOAD_MB / ((performance.now() - copyStart) / 1000);
  fs.rmSync(source, { force: true });
  fs.rmSync(target, { force: true });
  child.stdin.end();
  await new Promise((resolve) => child.on('exit', resolve));

  console.log(`  status ${status}; server RSS ${fmt(before / 2 ** 20)} MB before, peak ${fmt(peak / 2 ** 20)} MB: grew ${fmt((peak - before) / 2 ** 20)} MB (goal <= 64)`);
  console.log(`  upload ${fmt(uploadRate)} MB/s; plain stream copy on the same disk ${fmt(copyRate)} MB/s; ratio ${fmt(uploadRate / copyRate)} (goal >= 0.5)`);
}

async function thumbnails() {
  console.log(`\n3. Thumbnails of ${THUMBS} 12-megapixel JPEGs (4000x3000; WebP 400 px + display 1600 px)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-thumbs-'));
  const media = createLocalStorage(dir);
  const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#4477aa', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .jpeg({ quality: 85 })
    .toBuffer();
  const stems = Array.from({ length: THUMBS }, (_, i) => `${String(i).padStart(2, '0')}${'a'.repeat(30)}`);
  for (const stem of stems) await media.put(`pictures/${stem}.jpg`, photo);
  const start = performance.now();
  for (const stem of stems) await deriveFiles(media, stem, 'jpg');
  const seconds = (performance.now() - start) / 1000;
  console.log(`  ${(photo.length / 2 ** 20).toFixed(1)} MB each: ${fmt(THUMBS / seconds)} thumbnails/s (${fmt((seconds / THUMBS) * 1000)} ms each, one at a time, sharp's own threads)`);
  fs.rmSync(dir, { recursive: true, force: true });
}

async function heicDisplays() {
  console.log(`\n4. HEIC to display WebP, ${HEICS} iPhone-size photos (4032x3024 HEVC, heic-decode in a child process)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-heic-'));
  const media = createLocalStorage(path.join(dir, 'media'));
  const jpeg = path.join(dir, 'in.jpg');
  await sharp({ create: { width: 4032, height: 3024, channels: 3, background: '#4477aa', noise: { type: 'gaussian', mean: 128, sigma: 12 } } })
    .jpeg({ quality: 85 })
    .toFile(jpeg);
  execFileSync('heif-enc', ['-q', '60', jpeg, '-o', path.join(dir, 'in.heic')], { stdio: 'ignore' });
  const heic = fs.readFileSync(path.join(dir, 'in.heic'));
  const stems = Array.from({ length: HEICS }, (_, i) => `${String(i).padStart(2, '0')}${'b'.repeat(30)}`);
  for (const stem of stems) await media.put(`pictures/${stem}.heic`, heic);
  const start = performance.now();
  const cpuStart = cpuSeconds();
  for (const stem of stems) {
    const derived = await deriveFiles(media, stem, 'heic');
    if (!derived.display) throw new Error('no display WebP was made');
  }
  const seconds = (performance.now() - start) / 1000;
  const cpu = (cpuSeconds() - cpuStart) / HEICS;
  console.log(`  ${(heic.length / 2 ** 20).toFixed(1)} MB each: ${fmt(HEICS / seconds)} conversions/s (${fmt((seconds / HEICS) * 1000)} ms each, display 1600 px + thumbnail)`);
  // On a shared machine the wall time moves with the others' load; the CPU time does not.
  console.log(`  CPU ${fmt(cpu)} s per conversion (this process and its children): ${fmt(1 / cpu)} conversions per CPU-second`);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** CPU seconds used by this process and its finished children (/proc/self/stat utime, stime, cutime, cstime). */
function cpuSeconds(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
  return ticks / 100;
}

const statusKb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);

/** Child process: derives the picture named on the command line, reporting RSS before and the peak after. */
async function deriveOne(mediaDir: string, stem: string, fileType: string) {
  const media = createLocalStorage(mediaDir);
  // Load sharp's libvips and its threads first: the bench measures what one derivation adds.
  await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).webp().toBuffer();
  const before = statusKb('VmRSS');
  const derived = await deriveFiles(media, stem, fileType);
  process.stdout.write(`${JSON.stringify({ before, peak: statusKb('VmHWM'), derived })}\n`);
}

async function hugePng() {
  console.log('\n5. Peak RSS of deriving a 14,000 x 14,000 PNG (child process, /proc VmHWM; goal: at most 150 MB added)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-huge-'));
  const stem = 'c'.repeat(32);
  fs.mkdirSync(path.join(dir, 'pictures'));
  await sharp({ create: { width: 14_000, height: 14_000, channels: 3, background: '#808080' }, limitInputPixels: false })
    .png({ compressionLevel: 9 })
    .toFile(path.join(dir, 'pictures', `${stem}.png`));
  const size = fs.statSync(path.join(dir, 'pictures', `${stem}.png`)).size;
  const self = fileURLToPath(import.meta.url);
  const out = execFileSync(process.execPath, [...process.execArgv, self, '--derive', dir, stem, 'png'], { encoding: 'utf8' });
  const { before, peak, derived } = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { before: number; peak: number; derived: { thumb: string } };
  console.log(
    `  ${(size / 1024).toFixed(0)} KB on disk; thumbnail ${derived.thumb}; RSS ${fmt(before / 1024)} MB before, peak ${fmt(peak / 1024)} MB: added ${fmt((peak - before) / 1024)} MB (goal <= 150)`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
}

/** 169 files like a phone's and a scanner's: what the issue's real run uploaded, made here. */
async function realRunFiles(dir: string, count: number): Promise<{ name: string; data: Buffer }[]> {
  const noisy = (width: number, height: number, background: string, sigma = 30) =>
    sharp({ create: { width, height, channels: 3, background, noise: { type: 'gaussian', mean: 120, sigma } } });
  const jpegs = await Promise.all(
    ['#4477aa', '#aa7744', '#44aa77', '#7744aa'].map((colour, i) =>
      noisy(4032, 3024, colour)
        .jpeg({ quality: 88 })
        .withMetadata({ orientation: i % 2 ? 6 : 1 })
        .withExifMerge({ IFD0: { Make: 'Apple', Model: 'iPhone 12' }, IFD2: { DateTimeOriginal: `2023:0${i + 1}:15 10:20:30` } })
        .toBuffer(),
    ),
  );
  const png = await noisy(2532, 1170, '#223344', 8).png().toBuffer();
  // The slow ones are kept in BENCH_RUN_CACHE (a folder) when it is set, for the next run.
  const cache = process.env.BENCH_RUN_CACHE ?? dir;
  fs.mkdirSync(cache, { recursive: true });
  const made = async (name: string, make: (file: string) => Promise<unknown>) => {
    const file = path.join(cache, name);
    if (!fs.existsSync(file)) await make(`${file}.partial`).then(() => fs.renameSync(`${file}.partial`, file));
    return fs.readFileSync(file);
  };
  const heic = await made('photo.heic', async (out) => {
    const source = path.join(dir, 'heic.jpg');
    await noisy(4032, 3024, '#4477aa', 12).jpeg({ quality: 85 }).toFile(source);
    execFileSync('heif-enc', ['-q', '60', source, '-o', `${out}.heic`], { stdio: 'ignore' });
    fs.renameSync(`${out}.heic`, out);
  });
  const tiff = await made('scan.tif', async (out) => {
    await noisy(3400, 2200, '#ddccbb', 20).tiff({ compression: 'lzw' }).toFile(path.join(dir, 'scan-le.tif'));
    execFileSync('tiffcp', ['-B', path.join(dir, 'scan-le.tif'), out], { stdio: 'ignore' });
  });
  const mp4 = await made('clip.mp4', async (out) => {
    const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=8:size=1920x1080:rate=30'];
    execFileSync('ffmpeg', [...args, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', '-f', 'mp4', out], { stdio: 'ignore' });
  });
  // The mix of the issue's run: mostly phone JPEGs, then HEIC, screenshots, scans and a few videos.
  const files: { name: string; data: Buffer }[] = [];
  for (let i = 0; files.length < count; i++) {
    const slot = i % 13;
    if (slot < 8) files.push({ name: `IMG_${1000 + i}.JPG`, data: unique(jpegs[i % jpegs.length] ?? Buffer.alloc(0), i, 'tail') });
    else if (slot < 10) files.push({ name: `IMG_${1000 + i}.HEIC`, data: unique(heic, i, 'box') });
    else if (slot === 10) files.push({ name: `Screenshot ${i}.png`, data: unique(png, i, 'tail') });
    else if (slot === 11) files.push({ name: `scan-${i}.tif`, data: unique(tiff, i, 'tail') });
    else files.push({ name: `VID_${i}.mp4`, data: unique(mp4, i, 'box') });
  }
  return files;
}

/** The programs running under `pid` (their names, /proc/<pid>/comm), for the bench's figures. */
function childPrograms(pid: number): string {
  const names: string[] = [];
  const walk = (p: number) => {
    try {
      for (const task of fs.readdirSync(`/proc/${p}/task`)) {
        for (const c of fs.readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)) {
          names.push(fs.readFileSync(`/proc/${c}/comm`, 'utf8').trim());
          walk(c);
        }
      }
    } catch {
      // It ended meanwhile.
    }
  };
  walk(pid);
  return names.join(', ');
}

async function realRun() {
  console.log(`\n7. A run of ${RUN_FILES} varied files (JPEG with EXIF, HEIC, PNG, big-endian TIFF, MP4) uploaded to the server with its worker (${buildLabel})`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-run-'));
  const files = await realRunFiles(dir, RUN_FILES);
  const megabytes = files.reduce((sum, f) => sum + f.data.length, 0) / 2 ** 20;
  // The server as `npm start` runs it (the bundle; BENCH_FROM_SOURCE=1: through tsx, whose compiler
  // and source maps add some 40 MB to the server's heap).
  const child = spawn(process.execPath, await serverProcessArgs(import.meta.url, ['--serve-worker'], ['--expose-gc']), { stdio: ['pipe', 'pipe', 'inherit'] });
  const next = lines(child.stdout);
  const { base, cookie } = JSON.parse(await next()) as { base: string; cookie: string };
  child.stdin.write('mark\n');
  await next();
  const memory = async () => {
    child.stdin.write('mem\n');
    const m = JSON.parse(await next()) as { rss: number; heapTotal: number; external: number; arrayBuffers: number; anon: number };
    return (
      `RSS ${mb(m.rss)} MB (${mb(m.rss - m.anon)} MB of it mapped files: code), V8 heap ${mb(m.heapTotal)} MB, ArrayBuffers ${mb(m.arrayBuffers)} MB ` +
      `(PGlite's WebAssembly memory among them), other external ${mb(m.external - m.arrayBuffers)} MB`
    );
  };
  const mb = (n: number) => fmt(n / 2 ** 20);
  console.log(`  server at the start: ${await memory()}`);
  const before = treeRss(child.pid ?? 0);
  let peak = { own: before.own, children: 0, total: before.own + before.children };
  // Which programs the children were at their largest sampled moment.
  let childrenAtPeak = '';
  const sampler = setInterval(() => {
    const now = treeRss(child.pid ?? 0);
    if (now.children > peak.children) childrenAtPeak = childPrograms(child.pid ?? 0);
    peak = { own: Math.max(peak.own, now.own), children: Math.max(peak.children, now.children), total: Math.max(peak.total, now.own + now.children) };
  }, 10);
  const start = performance.now();
  const statuses = new Map<number, number>();
  const boundary = 'benchRunBoundary5hB2x';
  for (const [i, file] of files.entries()) {
    // Progress, so a run cut short still gives its figures.
    if (i > 0 && i % 13 === 0) console.log(`  after ${i} uploads: peak of the server and its children so far ${mb(peak.total)} MB (server ${mb(peak.own)} MB)`);
    const status = await postUpload(base, cookie, file.name, file.data, boundary);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  const uploaded = (performance.now() - start) / 1000;
  let answer: { jobs: number; children: { runs: number; maxPeakBytes: number } | null };
  for (;;) {
    child.stdin.write('jobs\n');
    answer = JSON.parse(await next()) as typeof answer;
    if (answer.jobs === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const done = (performance.now() - start) / 1000;
  clearInterval(sampler);
  child.stdin.write('peak\n');
  const serverPeak = (JSON.parse(await next()) as { rss: number }).rss;
  console.log(`  server at the end: ${await memory()}`);
  child.stdin.end();
  await new Promise((resolve) => child.on('exit', resolve));
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(`  ${files.length} files, ${fmt(megabytes)} MB; answers ${[...statuses].map(([s, n]) => `${n} x ${s}`).join(', ')}; uploaded in ${fmt(uploaded)} s, every thumbnail made after ${fmt(done)} s`);
  console.log(`  server RSS before ${mb(before.own)} MB (children ${mb(before.children)} MB); server peak ${mb(Math.max(serverPeak, peak.own))} MB; children's sampled peak ${mb(peak.children)} MB (${childrenAtPeak || 'none'})`);
  console.log(`  peak RSS of the server and its children together (sampled every 10 ms): ${mb(peak.total)} MB (goal < 600)`);
  if (answer.children) {
    console.log(`  ${answer.children.runs} decoding children; the largest peak one reported (VmHWM): ${mb(answer.children.maxPeakBytes)} MB; server peak + that: ${mb(Math.max(serverPeak, peak.own) + answer.children.maxPeakBytes)} MB`);
  }
}

const derive = process.argv.indexOf('--derive');
if (process.argv.includes('--serve-worker')) {
  await serve(true);
} else if (process.argv.includes('--serve')) {
  await serve();
} else if (derive >= 0) {
  const [mediaDir = '', stem = '', fileType = ''] = process.argv.slice(derive + 1);
  await deriveOne(mediaDir, stem, fileType);
} else {
  console.log(`Pictures benchmarks on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'})`);
  const sections = { paging, upload, thumbnails, heic: heicDisplays, png: hugePng, gallery: galleryUnderLoad, run: realRun, search: searchBench };
  const named = process.argv.slice(2).filter((arg) => arg in sections) as (keyof typeof sections)[];
  for (const name of named.length > 0 ? named : (Object.keys(sections) as (keyof typeof sections)[])) await sections[name]();
}
