/**
 * Resumable uploads (issue 47, tus 1.0.0). Prints numbers; asserts nothing.   Run: npm run bench:resumable
 *
 * The site is the real server in a child process (its own RSS) on an embedded database and the local
 * media store; the client sends over loopback from this process, bytes made on the fly (never whole in
 * memory). A 1 GiB file (BENCH_UPLOAD_MB to change):
 * 1. through today's one-request upload (POST /api/pictures/upload, multipart): MB/s;
 * 2. resumably (POST /uploads/, then PATCHes of RESUMABLE_CHUNK_BYTES as the upload page sends them):
 *    MB/s (goal >= 0.8 of the one-request rate, same run) and the server's RSS growth (goal <= 64 MB,
 *    the one-request upload's beside it);
 * 3. resumably, its first PATCH cut when half the file has been sent, then HEAD for the server's offset
 *    and the rest from there: the bytes sent beyond the file's size (goal < 10 %).
 * 1 and 2 run twice each, in the order 1 2 2 1, each after a `sync` (the kernel's write-back of the
 * last upload otherwise slows whichever runs next: 0.19-0.45 measured when 2 always followed 1) and
 * after a full collection in the server (which also starts the RSS peak): both kinds start from the
 * same heap. After a full collection V8 counts the request bodies' buffers (external memory) that the
 * next young collection has not yet freed against the old generation's limit, and a server streaming
 * a body then collects fully every 20-40 MB until the upload ends, whatever its path; when only the
 * resumable runs followed one, the one-request runs ran without those collections (docs/benchmarks.md).
 * An upload of each kind of 64 MiB, not timed, goes first (the modules loaded and the heap settled).
 * Both carry the same fields (a caption and a date), so neither reads the file's own date.
 * Each figure comes with the CPU time the server and this client spent per GiB (user + system) and
 * the server's full collections in each run: on a loaded machine the wall-clock rates follow the CPU
 * each path needs, and the CPU is what a change of the path moves. The load average is printed
 * before and after.
 * Each upload's bytes differ (no duplicate), and each ends as a stored picture (status 200).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { RESUMABLE_CHUNK_BYTES } from '@site/contracts';
import { buildApp } from '@site/server/app';
import { serverAreas } from '@site/server/areas/index';
import { openBenchSite, serveUntilStdinEnds, answerMemory, memoryChild } from './bench-site.ts';
import { flushDisk } from './upload-files.ts';

const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
const SIZE = UPLOAD_MB * 1024 * 1024;
const MB = 1024 * 1024;
const fmt = (n: number) => n.toFixed(2);
/** Writes the dirty pages of earlier uploads to the disk, so that the next timed upload does not wait behind them. */

/** The child: a site on the local store, served until stdin ends; 'mark' and 'peak' answer its RSS. */
async function serve() {
  const site = await openBenchSite('bench-resumable-', { MEDIA_MAX_BYTES: String(4 * 1024 ** 3) });
  // No thumbnail worker: the bench measures the upload, not the previews of a file of filler.
  const { worker: _worker, ...picturesWithoutWorker } = serverAreas.pictures;
  const app = await buildApp(site.deps, { areas: { ...serverAreas, pictures: picturesWithoutWorker } });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  // Full collections V8 made by itself (the `mark` of answerMemory forces one: not counted).
  let fullCollections = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { kind, flags } = (entry as PerformanceEntry & { detail: { kind: number; flags: number } }).detail;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR && !(flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED)) fullCollections++;
    }
  }).observe({ entryTypes: ['gc'] });
  answerMemory({ base, cookie: site.cookie }, (line) => {
    if (!line.startsWith('cpu')) return false;
    process.stdout.write(`${JSON.stringify({ ...process.cpuUsage(), fullCollections })}\n`);
    return true;
  });
  serveUntilStdinEnds(site, () => app.close());
}

type Child = { base: string; cookie: string; ask(line: string): Promise<string>; stop(): Promise<void> };

async function startSite(): Promise<Child> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [...process.execArgv, '--expose-gc', self, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  return memoryChild<{ base: string; cookie: string }>(child);
}

/**
 * Bytes `from` to `to` of a file of SIZE: a JPEG's first bytes, then filler; `seed` in the second
 * MiB makes each upload's bytes its own. 1 MiB a chunk, never whole in memory.
 */
function fileBytes(seed: number, from = 0, to = SIZE): Readable {
  const filler = Buffer.alloc(MB, 0x5a);
  const first = Buffer.from(filler);
  first.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00], 0);
  const second = Buffer.from(filler);
  second.writeUInt32BE(seed, 0);
  return Readable.from(
    (function* () {
      for (let at = from; at < to; ) {
        const index = Math.floor(at / MB);
        const chunk = index === 0 ? first : index === 1 ? second : filler;
        const start = at - index * MB;
        const end = Math.min(MB, to - index * MB);
        yield chunk.subarray(start, end);
        at += end - start;
      }
    })(),
  );
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request; the body streamed. With `cutAfter`, the connection drops once that many body bytes are written. */
function send(base: string, method: string, path: string, headers: Record<string, string | number>, body?: Readable, cutAfter?: number): Promise<Answer & { sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const req = http.request(new URL(path, base), { method, headers, agent: false });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, sent }));
    });
    req.on('error', (error) => (cutAfter !== undefined ? resolve({ status: 0, headers: {}, body: 'cut', sent }) : reject(error)));
    if (!body) return void req.end();
    body.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      if (!req.write(chunk)) body.pause();
      if (cutAfter !== undefined && sent >= cutAfter) {
        body.destroy();
        req.destroy();
      }
    });
    req.on('drain', () => body.resume());
    body.on('end', () => req.end());
  });
}

/** One multipart upload of `size` bytes (the caption and date of the resumable creation below). */
async function oneRequest(site: Child, seed: number, size = SIZE): Promise<void> {
  const boundary = 'benchBoundary7MA4YWxkTrZu0gW';
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(`${field('caption', 'Bench')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const tail = Buffer.from(`\r\n${field('date', '2024-01-01')}--${boundary}--\r\n`);
  const file = fileBytes(seed, 0, size);
  const body = Readable.from(
    (async function* () {
      yield head;
      yield* file;
      yield tail;
    })(),
  );
  const res = await send(site.base, 'POST', '/api/pictures/upload', { cookie: site.cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length }, body);
  if (res.status !== 200) throw new Error(`one-request upload: ${res.status} ${res.body}`);
}

const tus = (site: Child) => ({ cookie: site.cookie, 'tus-resumable': '1.0.0' });

async function create(site: Child, size = SIZE): Promise<string> {
  // The one-request form's fields: with a date, neither reads the file's own.
  const metadata = Object.entries({ caption: 'Bench', date: '2024-01-01' }).map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`);
  const created = await send(site.base, 'POST', '/uploads/', { ...tus(site), 'upload-length': size, 'upload-metadata': metadata.join(',') });
  if (created.status !== 201) throw new Error(`creation: ${created.status} ${created.body}`);
  return String(created.headers.location);
}

/** PATCHes from `offset` to the end (`size`) in RESUMABLE_CHUNK_BYTES pieces, as tus-js-client sends them; the body bytes sent. */
async function patchFrom(site: Child, url: string, seed: number, offset: number, size = SIZE): Promise<number> {
  let sent = 0;
  for (let at = offset; at < size; ) {
    const end = Math.min(size, at + RESUMABLE_CHUNK_BYTES);
    const res = await send(site.base, 'PATCH', url, { ...tus(site), 'upload-offset': at, 'content-type': 'application/offset+octet-stream', 'content-length': end - at }, fileBytes(seed, at, end));
    sent += res.sent;
    if (end === size ? res.status !== 200 : res.status !== 204) throw new Error(`PATCH at ${at}: ${res.status} ${res.body}`);
    at = Number(res.headers['upload-offset']);
  }
  return sent;
}

type ServerCpu = NodeJS.CpuUsage & { fullCollections: number };

/**
 * CPU seconds (user + system) of the server and of this client while `run` runs, its wall-clock
 * seconds and the server's full collections.
 */
async function timed(site: Child, run: () => Promise<unknown>): Promise<{ seconds: number; server: number; client: number; fullCollections: number }> {
  const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;
  const serverBefore = JSON.parse(await site.ask('cpu')) as ServerCpu;
  const clientBefore = process.cpuUsage();
  const start = performance.now();
  await run();
  const seconds = (performance.now() - start) / 1000;
  const client = cpuSeconds(process.cpuUsage(clientBefore));
  const serverAfter = JSON.parse(await site.ask('cpu')) as ServerCpu;
  const server = cpuSeconds(serverAfter) - cpuSeconds(serverBefore);
  return { seconds, server, client, fullCollections: serverAfter.fullCollections - serverBefore.fullCollections };
}

type Timing = Awaited<ReturnType<typeof timed>>;
const load = () => os.loadavg().map((n) => n.toFixed(2)).join(' ');

/** Mean MB/s of the runs, their seconds, the CPU seconds per GiB of the server and the client, and the server's full collections. */
function summary(runs: Timing[]): { rate: number; text: string } {
  const mean = (f: (t: Timing) => number) => runs.reduce((sum, t) => sum + f(t), 0) / runs.length;
  const rate = UPLOAD_MB / mean((t) => t.seconds);
  const perGiB = 1024 / UPLOAD_MB;
  const text = `${fmt(rate)} MB/s (${runs.map((t) => fmt(t.seconds)).join(' s, ')} s); CPU per GiB: server ${fmt(mean((t) => t.server) * perGiB)} s, client ${fmt(mean((t) => t.client) * perGiB)} s; server full collections ${runs.map((t) => t.fullCollections).join(' and ')}`;
  return { rate, text };
}

async function main() {
  if (process.argv.includes('--serve')) return serve();
  console.log(`Resumable uploads benchmark (node ${process.version}, ${UPLOAD_MB} MiB over loopback, local store, server from source through tsx)`);
  console.log(`load average ${load()} (${os.cpus().length} CPUs)`);
  const site = await startSite();
  try {
    // Each upload writes the file to the disk; the kernel writes it back afterwards, and the next
    // upload's writes wait behind that. So the disk is flushed (sync) before each timed upload, and
    // the two kinds run in the order A B B A: neither always goes first.
    // Each run also starts from a full collection in the server (`mark`), which starts its RSS peak.
    const plainRuns: Timing[] = [];
    const tusRuns: Timing[] = [];
    const growth = { plain: 0, tus: 0 };
    let seed = 1;
    const timedRun = async (kind: keyof typeof growth, runs: Timing[], upload: (seed: number) => Promise<unknown>) => {
      flushDisk();
      const before = JSON.parse(await site.ask('mark')) as { rss: number };
      const mine = ++seed;
      runs.push(await timed(site, () => upload(mine)));
      const peak = JSON.parse(await site.ask('peak')) as { rss: number };
      growth[kind] = Math.max(growth[kind], peak.rss - before.rss);
    };
    const timedTus = () => timedRun('tus', tusRuns, async (mine) => patchFrom(site, await create(site), mine, 0));
    const timedPlain = () => timedRun('plain', plainRuns, (mine) => oneRequest(site, mine));
    // Not timed: one upload of each kind loads the modules of both paths and of the pipeline. Then
    // 6 s pass: V8 sets the old generation's limit at a full collection from the allocation of the
    // last 5 s, and the first timed upload right after those loads found it 4 times the live heap
    // (no full collection in its 256 MiB) where every later upload found it 1.1-1.4 times (9-25).
    const warmUp = Math.min(SIZE, 64 * MB);
    await oneRequest(site, ++seed, warmUp);
    await patchFrom(site, await create(site, warmUp), ++seed, 0, warmUp);
    await new Promise((resolve) => setTimeout(resolve, 6000));
    await timedPlain();
    await timedTus();
    await timedTus();
    await timedPlain();
    const plain = summary(plainRuns);
    console.log(`\n1. One-request upload (multipart): ${plain.text} (first and last)`);
    const resumable = summary(tusRuns);
    console.log(`\n2. Resumable upload (tus, PATCHes of ${RESUMABLE_CHUNK_BYTES / MB} MiB): ${resumable.text} (second and third)`);
    console.log(`  ratio to the one-request upload ${fmt(resumable.rate / plain.rate)} (goal >= 0.8)`);
    console.log(`  server RSS growth during an upload, the larger of the two: ${fmt(growth.tus / MB)} MB (goal <= 64; the one-request upload's ${fmt(growth.plain / MB)} MB)`);

    // 3. The whole file in one PATCH, the connection cut when half of it has been sent.
    flushDisk();
    const cutUrl = await create(site);
    const cut = await send(site.base, 'PATCH', cutUrl, { ...tus(site), 'upload-offset': 0, 'content-type': 'application/offset+octet-stream', 'content-length': SIZE }, fileBytes(100), SIZE / 2);
    const head = await send(site.base, 'HEAD', cutUrl, tus(site));
    const offset = Number(head.headers['upload-offset']);
    const rest = await patchFrom(site, cutUrl, 100, offset);
    const total = cut.sent + rest;
    console.log(`\n3. Cut at 50 %: ${fmt(cut.sent / MB)} MiB sent before the cut, the server held ${fmt(offset / MB)} MiB (HEAD), ${fmt(rest / MB)} MiB sent after`);
    console.log(`  bytes sent ${fmt(total / MB)} MiB for a ${UPLOAD_MB} MiB file: ${fmt(((total - SIZE) / SIZE) * 100)} % extra (goal < 10 %)`);
  } finally {
    await site.stop();
  }
  console.log(`\nload average ${load()}`);
}

await main();
