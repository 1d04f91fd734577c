/**
 * Resumable uploads (issue 47, tus 1.0.0). Prints numbers; asserts nothing.   Run: npm run bench:resumable
 *
 * The site is the real server in a child process (its own RSS) on an embedded database and the local
 * media store; the client sends over loopback from this process, bytes made on the fly (never whole in
 * memory). A 1 GiB file (BENCH_UPLOAD_MB to change):
 * 1. through today's one-request upload (POST /api/pictures/upload, multipart): MB/s;
 * 2. resumably (POST /uploads/, then PATCHes of RESUMABLE_CHUNK_BYTES as the upload page sends them):
 *    MB/s (goal >= 0.8 of the one-request rate, same run) and the server's RSS growth (goal <= 64 MB);
 * 3. resumably, its first PATCH cut when half the file has been sent, then HEAD for the server's offset
 *    and the rest from there: the bytes sent beyond the file's size (goal < 10 %).
 * 1 and 2 run twice each, in the order 1 2 2 1, each after a `sync` (the kernel's write-back of the
 * last upload otherwise slows whichever runs next: 0.19-0.45 measured when 2 always followed 1).
 * Each upload's bytes differ (no duplicate), and each ends as a stored picture (status 200).
 */
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { RESUMABLE_CHUNK_BYTES } from '@site/contracts';
import { buildApp } from '@site/server/app';
import { serverAreas } from '@site/server/areas/index';
import { openBenchSite, serveUntilStdinEnds, answerMemory, memoryChild } from './bench-site.ts';

const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
const SIZE = UPLOAD_MB * 1024 * 1024;
const MB = 1024 * 1024;
const fmt = (n: number) => n.toFixed(2);
/** Writes the dirty pages of earlier uploads to the disk, so that the next timed upload does not wait behind them. */
const flushDisk = () => execFileSync('sync');

/** The child: a site on the local store, served until stdin ends; 'mark' and 'peak' answer its RSS. */
async function serve() {
  const site = await openBenchSite('bench-resumable-', { MEDIA_MAX_BYTES: String(4 * 1024 ** 3) });
  // No thumbnail worker: the bench measures the upload, not the previews of a file of filler.
  const { worker: _worker, ...picturesWithoutWorker } = serverAreas.pictures;
  const app = await buildApp(site.deps, { areas: { ...serverAreas, pictures: picturesWithoutWorker } });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  answerMemory({ base, cookie: site.cookie });
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

async function oneRequest(site: Child, seed: number): Promise<number> {
  const boundary = 'benchBoundary7MA4YWxkTrZu0gW';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="date"\r\n\r\n2024-01-01\r\n--${boundary}--\r\n`);
  const file = fileBytes(seed);
  const body = Readable.from(
    (async function* () {
      yield head;
      yield* file;
      yield tail;
    })(),
  );
  const start = performance.now();
  const res = await send(site.base, 'POST', '/api/pictures/upload', { cookie: site.cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + SIZE + tail.length }, body);
  if (res.status !== 200) throw new Error(`one-request upload: ${res.status} ${res.body}`);
  return (performance.now() - start) / 1000;
}

const tus = (site: Child) => ({ cookie: site.cookie, 'tus-resumable': '1.0.0' });

async function create(site: Child): Promise<string> {
  const created = await send(site.base, 'POST', '/uploads/', { ...tus(site), 'upload-length': SIZE, 'upload-metadata': `caption ${Buffer.from('Bench').toString('base64')}` });
  if (created.status !== 201) throw new Error(`creation: ${created.status} ${created.body}`);
  return String(created.headers.location);
}

/** PATCHes from `offset` to the end in RESUMABLE_CHUNK_BYTES pieces, as tus-js-client sends them; the body bytes sent. */
async function patchFrom(site: Child, url: string, seed: number, offset: number): Promise<number> {
  let sent = 0;
  for (let at = offset; at < SIZE; ) {
    const end = Math.min(SIZE, at + RESUMABLE_CHUNK_BYTES);
    const res = await send(site.base, 'PATCH', url, { ...tus(site), 'upload-offset': at, 'content-type': 'application/offset+octet-stream', 'content-length': end - at }, fileBytes(seed, at, end));
    sent += res.sent;
    if (end === SIZE ? res.status !== 200 : res.status !== 204) throw new Error(`PATCH at ${at}: ${res.status} ${res.body}`);
    at = Number(res.headers['upload-offset']);
  }
  return sent;
}

async function main() {
  if (process.argv.includes('--serve')) return serve();
  console.log(`Resumable uploads benchmark (node ${process.version}, ${UPLOAD_MB} MiB over loopback, local store, server from source through tsx)`);
  const site = await startSite();
  try {
    // Each upload writes the file to the disk; the kernel writes it back afterwards, and the next
    // upload's writes wait behind that. So the disk is flushed (sync) before each timed upload, and
    // the two kinds run in the order A B B A: neither always goes first.
    const plainTimes: number[] = [];
    const tusTimes: number[] = [];
    let before = { rss: 0 };
    let peak = { rss: 0 };
    let seed = 1;
    const timedTus = async () => {
      flushDisk();
      before = JSON.parse(await site.ask('mark')) as { rss: number };
      const start = performance.now();
      const url = await create(site);
      await patchFrom(site, url, ++seed, 0);
      tusTimes.push((performance.now() - start) / 1000);
      peak = JSON.parse(await site.ask('peak')) as { rss: number };
    };
    const timedPlain = async () => {
      flushDisk();
      plainTimes.push(await oneRequest(site, ++seed));
    };
    await timedPlain();
    await timedTus();
    await timedTus();
    await timedPlain();
    const plainSeconds = plainTimes.reduce((a, b) => a + b, 0) / plainTimes.length;
    const plainRate = UPLOAD_MB / plainSeconds;
    console.log(`\n1. One-request upload (multipart): ${fmt(plainRate)} MB/s (${plainTimes.map(fmt).join(' s, ')} s: first and last)`);

    const tusSeconds = tusTimes.reduce((a, b) => a + b, 0) / tusTimes.length;
    const tusRate = UPLOAD_MB / tusSeconds;
    console.log(`\n2. Resumable upload (tus, PATCHes of ${RESUMABLE_CHUNK_BYTES / MB} MiB): ${fmt(tusRate)} MB/s (${tusTimes.map(fmt).join(' s, ')} s: second and third)`);
    console.log(`  ratio to the one-request upload ${fmt(tusRate / plainRate)} (goal >= 0.8)`);
    console.log(`  server RSS ${fmt(before.rss / MB)} MB before the last, peak ${fmt(peak.rss / MB)} MB: grew ${fmt((peak.rss - before.rss) / MB)} MB (goal <= 64)`);

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
}

await main();
