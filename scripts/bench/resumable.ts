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
 * Each figure comes with the CPU time the server and this client spent per GiB (user + system): on
 * a loaded machine the wall-clock rates follow the CPU each path needs, and the CPU is what a change
 * of the path moves. The load average is printed before and after.
 * Each upload's bytes differ (no duplicate), and each ends as a stored picture (status 200).
 */
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
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
  answerMemory({ base, cookie: site.cookie }, (line) => {
    if (!line.startsWith('cpu')) return false;
    process.stdout.write(`${JSON.stringify(process.cpuUsage())}\n`);
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

async function oneRequest(site: Child, seed: number): Promise<void> {
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
  const res = await send(site.base, 'POST', '/api/pictures/upload', { cookie: site.cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + SIZE + tail.length }, body);
  if (res.status !== 200) throw new Error(`one-request upload: ${res.status} ${res.body}`);
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

/** CPU seconds (user + system) of the server and of this client while `run` runs, and its wall-clock seconds. */
async function timed(site: Child, run: () => Promise<unknown>): Promise<{ seconds: number; server: number; client: number }> {
  const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;
  const serverBefore = JSON.parse(await site.ask('cpu')) as NodeJS.CpuUsage;
  const clientBefore = process.cpuUsage();
  const start = performance.now();
  await run();
  const seconds = (performance.now() - start) / 1000;
  const client = cpuSeconds(process.cpuUsage(clientBefore));
  const server = cpuSeconds(JSON.parse(await site.ask('cpu')) as NodeJS.CpuUsage) - cpuSeconds(serverBefore);
  return { seconds, server, client };
}

type Timing = Awaited<ReturnType<typeof timed>>;
const load = () => os.loadavg().map((n) => n.toFixed(2)).join(' ');

/** Mean MB/s of the runs, their seconds, and the CPU seconds per GiB of the server and the client. */
function summary(runs: Timing[]): { rate: number; text: string } {
  const mean = (f: (t: Timing) => number) => runs.reduce((sum, t) => sum + f(t), 0) / runs.length;
  const rate = UPLOAD_MB / mean((t) => t.seconds);
  const perGiB = 1024 / UPLOAD_MB;
  const text = `${fmt(rate)} MB/s (${runs.map((t) => fmt(t.seconds)).join(' s, ')} s); CPU per GiB: server ${fmt(mean((t) => t.server) * perGiB)} s, client ${fmt(mean((t) => t.client) * perGiB)} s`;
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
    const plainRuns: Timing[] = [];
    const tusRuns: Timing[] = [];
    let growth = 0;
    let seed = 1;
    const timedTus = async () => {
      flushDisk();
      const before = JSON.parse(await site.ask('mark')) as { rss: number };
      const mine = ++seed;
      tusRuns.push(
        await timed(site, async () => {
          const url = await create(site);
          await patchFrom(site, url, mine, 0);
        }),
      );
      const peak = JSON.parse(await site.ask('peak')) as { rss: number };
      growth = Math.max(growth, peak.rss - before.rss);
    };
    const timedPlain = async () => {
      flushDisk();
      const mine = ++seed;
      plainRuns.push(await timed(site, () => oneRequest(site, mine)));
    };
    await timedPlain();
    await timedTus();
    await timedTus();
    await timedPlain();
    const plain = summary(plainRuns);
    console.log(`\n1. One-request upload (multipart): ${plain.text} (first and last)`);
    const resumable = summary(tusRuns);
    console.log(`\n2. Resumable upload (tus, PATCHes of ${RESUMABLE_CHUNK_BYTES / MB} MiB): ${resumable.text} (second and third)`);
    console.log(`  ratio to the one-request upload ${fmt(resumable.rate / plain.rate)} (goal >= 0.8)`);
    console.log(`  server RSS growth during an upload, the larger of the two: ${fmt(growth / MB)} MB (goal <= 64)`);

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
