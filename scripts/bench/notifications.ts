/**
 * `npm run bench:notifications`: Web Push from the server as it runs in production (`server/dist`,
 * built by `npm run build -w @site/server`) on a fresh PGlite, to a real push service in a process of
 * its own (HTTPS on 127.0.0.1 with a certificate made here and trusted through NODE_EXTRA_CA_CERTS; it
 * checks the VAPID JWT and decrypts every message, as in the tests). In its own process so that its
 * decrypting neither delays the requests this process times nor counts against the server.
 *
 * 1. Commit to push: a family member adds a House task BENCH_ROUNDS (50) times, one at a time; the
 *    delay from sending the request (the commit is before its answer) to the push request arriving.
 * 2. Fan-out: the owner's browser holds BENCH_SUBSCRIPTIONS (1000) subscriptions; one task added; the
 *    time until every push arrived, the server's RSS growth meanwhile, and the p99 of other requests
 *    (GET /trpc/house.list, one after another) during the fan-out against idle.
 * Prints the numbers; asserts nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer } from '@site/server/testing/spawn-server';
import { pushServiceChild } from './push-service-child.ts';
import { percentile } from './stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 1000);

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function call(base: string, path_: string, cookie: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${base}${path_}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${path_} answered ${res.status}: ${await res.text()}`);
  return res;
}

async function signUp(base: string, name: string): Promise<string> {
  const password = 'bench password 12345';
  const res = await fetch(`${base}/api/signup_attempt`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ signupName: name, signupPass: password, signupConfPass: password }),
  });
  const cookie = /sid=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error(`sign-up of ${name} answered ${res.status}: ${await res.text()}`);
  return cookie;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-push-'));
  const push = await pushServiceChild(dir);
  const server = await spawnServer({ env: { NODE_EXTRA_CA_CERTS: push.cert, PUSH_ALLOWED_HOSTS: '127.0.0.1' },
    timeoutMs: 90_000,
    // BENCH_PROFILE=<dir>: the server writes a CPU profile there when it stops (open it in DevTools).
    nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
  });
  try {
    const base = server.url;
    const owner = await signUp(base, 'Owner');
    const family = await signUp(base, 'Family');
    await call(base, '/trpc/admin.setLevel', owner, { name: 'Family', level: 2 });
    await call(base, '/trpc/push.subscribe', owner, await push.subscribe());

    // 1. Commit to push, one change at a time on an idle server.
    const delays: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const before = await push.count();
      const sent = Date.now();
      await call(base, '/trpc/house.add', family, { task: `bench ${i}`, type: 'To Get' });
      await push.waitFor(before.received + before.refused + 1);
      delays.push(((await push.arrivals(before.received))[0] ?? NaN) - sent);
    }
    console.log(`commit -> push (${ROUNDS} changes): median ${percentile(delays, 50)} ms, p95 ${percentile(delays, 95)} ms, max ${Math.max(...delays)} ms (target p95 <= 2000 ms)`);

    // 2. Fan-out to SUBSCRIPTIONS devices.
    for (let i = 1; i < SUBSCRIPTIONS; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, SUBSCRIPTIONS - i) }, () => push.subscribe().then((subscription) => call(base, '/trpc/push.subscribe', owner, subscription))));
    }
    const timeList = async () => {
      const t = performance.now();
      await (await call(base, '/trpc/house.list', owner)).arrayBuffer();
      return performance.now() - t;
    };
    const idle: number[] = [];
    for (let i = 0; i < 300; i++) idle.push(await timeList());
    const rssBefore = rssMb(server.process.pid ?? 0);
    let rssPeak = rssBefore;
    const watch = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(server.process.pid ?? 0))), 20);
    const before = await push.count();
    const start = Date.now();
    await call(base, '/trpc/house.add', family, { task: 'fan-out', type: 'To Get' });
    const busy: number[] = [];
    let done = false;
    const all = push.waitFor(before.received + before.refused + SUBSCRIPTIONS, 120_000).then(() => (done = true));
    while (!done) busy.push(await timeList());
    await all;
    const took = ((await push.arrivals(before.received)).at(-1) ?? NaN) - start;
    clearInterval(watch);
    console.log(`fan-out to ${SUBSCRIPTIONS} subscriptions: ${(took / 1000).toFixed(2)} s (target <= 10 s); refused by the push service: ${(await push.count()).refused}`);
    console.log(`server RSS: ${rssBefore.toFixed(0)} MB before, ${rssPeak.toFixed(0)} MB at most during (+${(rssPeak - rssBefore).toFixed(0)} MB; target <= +64 MB)`);
    console.log(`other requests (GET /trpc/house.list): p99 ${percentile(idle, 99).toFixed(1)} ms idle, ${percentile(busy, 99).toFixed(1)} ms during the fan-out (${busy.length} requests; target <= 2x idle)`);
  } finally {
    await server.stop();
    await push.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

await main();
