/**
 * Media in an S3-compatible bucket (issue 41). Prints numbers; asserts nothing.   Run: npm run bench:storage
 *
 * The bucket is a real S3 protocol server (s3rver) on 127.0.0.1 in this process; each site is the
 * real server in a child process (its own RSS), on an embedded database.
 * 1. Uploading a 1 GiB file (BENCH_UPLOAD_MB to change) through the site into the bucket: the server's
 *    RSS growth (goal <= 64 MB) and its MB/s next to the same SDK (lib-storage, same part size and
 *    parallelism) uploading the same bytes to the same bucket directly, in the same run (goal >= 0.5).
 * 2. Thumbnails served from the bucket and from the local disk under 50 connections (autocannon,
 *    BENCH_SECONDS each): p50/p99 latency and requests/s (goal: bucket p99 <= 2x local p99).
 * Name sections to run only those: npm run bench:storage -- upload thumbnails
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import sharp from 'sharp';
import { buildApp } from '@site/server/app';
import { serverAreas } from '@site/server/areas/index';
import { startTestS3 } from '@site/server/testing/s3-server';
import { openBenchSite, serveUntilStdinEnds, answerMemory, memoryChild } from './bench-site.ts';

const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const THUMBS = 50;
const fmt = (n: number) => n.toFixed(2);

/** The child: a site on `store` (its S3 settings in BENCH_S3_ENV), thumbnails of THUMBS pictures stored, served until stdin ends. */
async function serve(store: string) {
  const env = store === 's3' ? (JSON.parse(process.env.BENCH_S3_ENV ?? '{}') as Record<string, string>) : {};
  const site = await openBenchSite(`bench-storage-${store}-`, { ...env, MEDIA_MAX_BYTES: String(4 * 1024 ** 3) });
  const { worker: _worker, ...picturesWithoutWorker } = serverAreas.pictures;
  const app = await buildApp(site.deps, { areas: { ...serverAreas, pictures: picturesWithoutWorker } });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  // Real thumbnails (a 400 px WebP of a noisy photo), one per picture row.
  const thumb = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#4477aa', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .webp({ quality: 80 })
    .toBuffer();
  const stems: string[] = [];
  for (let i = 0; i < THUMBS; i++) {
    const stem = `${String(i).padStart(2, '0')}${'c'.repeat(30)}`;
    stems.push(stem);
    await sql`insert into pictures (stem, file_type, mime, size_bytes, caption, year, month, day, status, uploaded_by, thumb_status)
      values (${stem}, 'jpg', 'image/jpeg', 1000, ${`Picture ${i}`}, 2024, 1, 1, 'approved', null, 'ready')`.execute(site.handle.db);
    await site.deps.media.put(`pictures/${stem}.thumb.webp`, thumb);
  }
  answerMemory({ base, cookie: site.cookie, stems, thumbBytes: thumb.length });
  serveUntilStdinEnds(site, () => app.close());
}

type Child = { base: string; cookie: string; stems: string[]; thumbBytes: number; ask(line: string): Promise<string>; stop(): Promise<void> };

async function startSite(store: 'local' | 's3', s3Env: Record<string, string>): Promise<Child> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [...process.execArgv, '--expose-gc', self, '--serve', store], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_S3_ENV: JSON.stringify(s3Env) },
  });
  return memoryChild<Omit<Child, 'ask' | 'stop'>>(child);
}

/** `mb` MiB of a JPEG's first bytes and then filler, 1 MiB a chunk, never whole in memory. */
function fileBytes(mb: number): Readable {
  const chunk = Buffer.alloc(1024 * 1024, 0x5a);
  const first = Buffer.from(chunk);
  first.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00], 0);
  return Readable.from(
    (function* () {
      yield first;
      for (let i = 1; i < mb; i++) yield chunk;
    })(),
  );
}

function multipartBody(mb: number, boundary: string) {
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="date"\r\n\r\n2024-01-01\r\n--${boundary}--\r\n`);
  const file = fileBytes(mb);
  async function* gen() {
    yield head;
    yield* file;
    yield tail;
  }
  return { stream: Readable.from(gen()), length: head.length + mb * 1024 * 1024 + tail.length };
}

async function upload(s3: Awaited<ReturnType<typeof startTestS3>>) {
  console.log(`\n1. Uploading ${UPLOAD_MB} MiB through the site into the bucket, and with the SDK directly`);
  const site = await startSite('s3', s3.env('bench-upload/'));
  const before = JSON.parse(await site.ask('mark')) as { rss: number };
  const boundary = 'benchBoundary7MA4YWxkTrZu0gW';
  const { stream, length } = multipartBody(UPLOAD_MB, boundary);
  const start = performance.now();
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(new URL('/api/pictures/upload', site.base), {
      method: 'POST',
      headers: { cookie: site.cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    stream.pipe(req);
  });
  const siteSeconds = (performance.now() - start) / 1000;
  const peak = JSON.parse(await site.ask('peak')) as { rss: number };
  await site.stop();

  // The same bytes, the same SDK, part size and parallelism as the server's store, straight into the bucket.
  const settings = s3.settings('bench-direct/');
  const client = new S3Client({ endpoint: settings.endpoint ?? '', region: settings.region, forcePathStyle: true, credentials: settings.credentials ?? undefined });
  const directStart = performance.now();
  await new Upload({ client, params: { Bucket: settings.bucket, Key: `${settings.prefix}big.jpg`, Body: fileBytes(UPLOAD_MB) }, partSize: 8 * 1024 * 1024, queueSize: 3 }).done();
  const directSeconds = (performance.now() - directStart) / 1000;

  const siteRate = UPLOAD_MB / siteSeconds;
  const directRate = UPLOAD_MB / directSeconds;
  console.log(`  status ${status}; server RSS ${fmt(before.rss / 2 ** 20)} MB before, peak ${fmt(peak.rss / 2 ** 20)} MB: grew ${fmt((peak.rss - before.rss) / 2 ** 20)} MB (goal <= 64)`);
  console.log(`  through the site ${fmt(siteRate)} MB/s (${fmt(siteSeconds)} s, the answer after the copy under its name); SDK directly ${fmt(directRate)} MB/s (${fmt(directSeconds)} s)`);
  console.log(`  ratio ${fmt(siteRate / directRate)} (goal >= 0.5)`);
}

async function thumbnails(s3: Awaited<ReturnType<typeof startTestS3>>) {
  console.log(`\n2. Thumbnails under 50 connections, ${SECONDS} s each (autocannon; ${THUMBS} pictures in turn)`);
  const results: Record<string, { p50: number; p99: number; rps: number }> = {};
  // BENCH_ORDER=s3,local measures the bucket first (the machine's load drifts during a run).
  const order = (process.env.BENCH_ORDER ?? 'local,s3').split(',') as ('local' | 's3')[];
  for (const store of order) {
    const site = await startSite(store, s3.env('bench-thumbs/'));
    const run = (duration: number) =>
      autocannon({
        url: site.base,
        connections: 50,
        duration,
        headers: { cookie: site.cookie },
        requests: site.stems.map((stem) => ({ method: 'GET' as const, path: `/private/pictures/${stem}.thumb.webp` })),
      });
    // Warm up: every thumbnail asked for once (the bucket's store keeps them in memory from then on), then 2 s under load.
    for (const stem of site.stems) await fetch(new URL(`/private/pictures/${stem}.thumb.webp`, site.base), { headers: { cookie: site.cookie } }).then((r) => r.arrayBuffer());
    await run(2);
    const result = await run(SECONDS);
    await site.stop();
    if (result.non2xx > 0 || result.errors > 0) console.log(`  ${store}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
    results[store] = { p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average };
    console.log(`  ${store === 's3' ? 'bucket' : 'local disk'}: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${fmt(result.requests.average)} requests/s (${(site.thumbBytes / 1024).toFixed(1)} KiB each)`);
  }
  console.log(`  bucket p99 / local p99: ${fmt((results.s3?.p99 ?? NaN) / (results.local?.p99 ?? NaN))} (goal <= 2)`);
}

async function main() {
  const serveAt = process.argv.indexOf('--serve');
  if (serveAt >= 0) return serve(process.argv[serveAt + 1] ?? 'local');
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const on = (name: string) => wanted.length === 0 || wanted.includes(name);
  const s3 = await startTestS3();
  try {
    console.log(`Media storage benchmark (node ${process.version}, s3rver on 127.0.0.1, server from source through tsx)`);
    if (on('upload')) await upload(s3);
    if (on('thumbnails')) await thumbnails(s3);
  } finally {
    await s3.close();
  }
}

await main();
