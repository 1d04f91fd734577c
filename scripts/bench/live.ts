/**
 * `npm run bench:live`: the live feed (GET /events) with many pages open. The server is the
 * production bundle in a child process (server-process.ts) on PGlite, watching the database's change
 * notifications as `npm start` does. This process opens BENCH_STREAMS (1000) streams, at most 30 per
 * client address (127.0.x.y: the server allows 32 per address), adds a house task through
 * /api/todo/house/add BENCH_ROUNDS (20) times, and measures how long after the write's answer each
 * stream hears of it; then the same with one stream, and the write rate with and without the streams.
 * Then the same 1000 streams with a well-formed session cookie that names no session (a hostile
 * client's): the database statements and the server CPU each write costs with them open.
 * Prints ratios measured in this one run; asserts nothing.
 */
import http from 'node:http';
import os from 'node:os';
import { buildApp } from '@site/server/app';
import { QueryCounter } from '@site/server/db/query-counter';
import { watchDatabaseChanges } from '@site/server/watch-changes';
import { openBenchSite, serveUntilStdinEnds } from './bench-site.ts';
import { buildLabel, cpuOf, startBenchProcess } from './server-process.ts';
import { percentile } from './stats.ts';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const WRITES = Number(process.env.BENCH_WRITES ?? 200);
const PER_ADDRESS = 30;

/** `queries`: where the server process answers how many database statements it has sent so far. */
type Served = { base: string; cookie: string; queries: string };

async function serve(): Promise<void> {
  const counter = new QueryCounter();
  const site = await openBenchSite('bench-live-', {}, (db) => db.withPlugin(counter));
  const counts = http.createServer((_req, res) => res.end(String(counter.count)));
  await new Promise<void>((resolve) => counts.listen(0, '127.0.0.1', resolve));
  const { port } = counts.address() as { port: number };
  counts.unref();
  const app = await buildApp(site.deps);
  const watching = watchDatabaseChanges(site.handle, site.deps, app.log);
  await watching.ready;
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ base, cookie: site.cookie, queries: `http://127.0.0.1:${port}/` } satisfies Served)}\n`);
  serveUntilStdinEnds(site, () => app.close().then(() => watching.stop()));
}

/** One open stream: when it heard of each house change, in order. */
type Stream = { heard: number[]; close(): void };

function openStream(base: string, index: number, cookie?: string): Promise<Stream> {
  const localAddress = `127.0.${1 + Math.floor(index / PER_ADDRESS)}.${2 + (index % PER_ADDRESS)}`;
  return new Promise((resolve, reject) => {
    const heard: number[] = [];
    const req = http.request(new URL('/events', base), { agent: false, localAddress, headers: cookie ? { cookie } : {} }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`stream ${index} from ${localAddress}: ${res.statusCode}`));
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const now = performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('retry:')) resolve({ heard, close: () => req.destroy() });
          else if (block.includes('"area":"house"')) heard.push(now);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function addTask(base: string, cookie: string, task: string): Promise<number> {
  const res = await fetch(`${base}/api/todo/house/add`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ task, type: 'To Get' }),
  });
  if (!res.ok) throw new Error(`house add answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now();
}

/** Delays (ms) from each write's answer to each stream hearing of it, over `rounds` writes. */
async function fanOut(served: Served, streams: Stream[], rounds: number): Promise<number[]> {
  const delays: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const before = streams.map((s) => s.heard.length);
    const answered = await addTask(served.base, served.cookie, `bench ${round}`);
    const deadline = Date.now() + 10_000;
    while (streams.some((s, i) => s.heard.length <= (before[i] ?? 0))) {
      if (Date.now() > deadline) throw new Error(`round ${round}: not every stream heard of the change within 10 s`);
      await new Promise((r) => setTimeout(r, 1));
    }
    // A stream may hear of it before the answer reaches this process: that counts as 0.
    for (const [i, s] of streams.entries()) delays.push(Math.max(0, (s.heard[before[i] ?? 0] ?? answered) - answered));
  }
  return delays;
}

/** Writes one after another: how many a second, and the server's CPU ms per write. */
async function writeRate(served: Served, count: number, pid: number): Promise<{ rate: number; cpuMs: number }> {
  const start = performance.now();
  const [cpuBefore] = cpuOf(pid);
  for (let i = 0; i < count; i++) await addTask(served.base, served.cookie, `rate ${i}`);
  const [cpuAfter] = cpuOf(pid);
  return { rate: count / ((performance.now() - start) / 1000), cpuMs: (cpuAfter - cpuBefore) / count };
}

const queriesSoFar = async (served: Served) => Number(await (await fetch(served.queries)).text());

async function openMany(base: string, count: number, cookie?: string): Promise<Stream[]> {
  const many: Stream[] = [];
  for (let i = 0; i < count; i += 50) many.push(...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => openStream(base, i + j, cookie)))));
  return many;
}

/** The database statements and server CPU per write while `streams` are open (each write heard by all). */
async function costPerWrite(served: Served, streams: Stream[], pid: number): Promise<{ queries: number; cpuMs: number; heard: number[] }> {
  await new Promise((r) => setTimeout(r, 500));
  const queries = await queriesSoFar(served);
  const [cpu] = cpuOf(pid);
  const heard = await fanOut(served, streams, ROUNDS);
  // Lookups still running after the last stream heard of the last write count too.
  await new Promise((r) => setTimeout(r, 500));
  const [cpuAfter] = cpuOf(pid);
  return { queries: ((await queriesSoFar(served)) - queries) / ROUNDS, cpuMs: (cpuAfter - cpu) / ROUNDS, heard };
}

async function main() {
  console.log(`Live feed on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), ${buildLabel}`);
  const { process: child, info } = await startBenchProcess<Served>(import.meta.url, ['--serve']);
  const pid = child.pid ?? 0;
  try {
    await writeRate(info, 20, pid); // warm up
    const alone = await writeRate(info, WRITES, pid);
    const one = [await openStream(info.base, 0)];
    const single = await fanOut(info, one, ROUNDS);
    one[0]?.close();
    const settle = () => new Promise((r) => setTimeout(r, 1_000));
    await settle();
    const opened = performance.now();
    const many = await openMany(info.base, STREAMS);
    const openMs = performance.now() - opened;
    const all = await fanOut(info, many, ROUNDS);
    const withStreams = await writeRate(info, WRITES, pid);
    const anonymous = await costPerWrite(info, many, pid);
    for (const s of many) s.close();
    await settle();
    // A well-formed cookie naming no session: 43 characters of the token's alphabet.
    const unknown = await openMany(info.base, STREAMS, `sid=${'A'.repeat(43)}`);
    const unknownCost = await costPerWrite(info, unknown, pid);
    for (const s of unknown) s.close();
    const fmt = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;
    console.log(`  ${STREAMS} streams opened in ${(openMs / 1000).toFixed(1)} s`);
    console.log(`  1 stream:        a house change heard ${fmt(single)} after the write's answer (${ROUNDS} writes)`);
    console.log(`  ${STREAMS} streams: every stream heard it ${fmt(all)} after the answer (${ROUNDS} writes x ${STREAMS})`);
    console.log(`  ratio p99 ${STREAMS} streams / 1 stream: ${(percentile(all, 99) / Math.max(0.1, percentile(single, 99))).toFixed(1)}   (the issue's bound: 1,000 ms)`);
    console.log(
      `  house writes, one after another: ${alone.rate.toFixed(0)}/s without streams, ${withStreams.rate.toFixed(0)}/s with ${STREAMS} open (this process reads all ${STREAMS} on the same cores): ratio ${(withStreams.rate / alone.rate).toFixed(2)}`,
    );
    console.log(
      `  server CPU per write: ${alone.cpuMs.toFixed(1)} ms without streams, ${withStreams.cpuMs.toFixed(1)} ms with ${STREAMS} open (${((withStreams.cpuMs - alone.cpuMs) / STREAMS * 1000).toFixed(0)} µs per stream told)`,
    );
    console.log(`  ${STREAMS} anonymous streams:           ${anonymous.queries.toFixed(1)} database statements and ${anonymous.cpuMs.toFixed(0)} ms server CPU per write (${ROUNDS} writes), heard ${fmt(anonymous.heard)}`);
    console.log(`  ${STREAMS} streams of an unknown session: ${unknownCost.queries.toFixed(1)} database statements and ${unknownCost.cpuMs.toFixed(0)} ms server CPU per write (${ROUNDS} writes), heard ${fmt(unknownCost.heard)}`);
  } finally {
    child.stdin.end();
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
