/**
 * HTTP throughput: a bare Fastify route, the tRPC status query (as @trpc/client's batch link sends
 * it) and /api/login_status, both with a valid session cookie, over 127.0.0.1.
 * The servers run in a child process and autocannon in this one, so the load generator never
 * shares the servers' event loop (on 2 cores: one core each).
 * The servers are the production build of the server (see server-process.ts).
 * Goal: both ratios to the bare route >= 0.5.   Run: npm run bench:http
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { buildApp } from '@site/server/app';
import { createContext } from '@site/server/trpc/context';
import { appRouter, type AppRouter } from '@site/server/router';
import { openBenchSite, serveUntilStdinEnds } from './bench-site.ts';
import { buildLabel, cpuOf, startBenchProcess } from './server-process.ts';
import { median } from './stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

type Servers = { plain: string; app: string; cookie: string };

/** Child process: a bare Fastify instance and the real app, each on its own port. */
async function serve(): Promise<void> {
  const site = await openBenchSite('site-bench-');
  const app = await buildApp(site.deps);
  app.get('/bench/bare', async () => ({ user: 'bench', level: 3 }));
  // For reference only: the same router behind tRPC's stock Fastify adapter.
  const stockOptions: FastifyTRPCPluginOptions<AppRouter> = {
    prefix: '/trpc-stock',
    trpcOptions: { router: appRouter, createContext: ({ req, res }) => createContext(site.deps, req, res) },
  };
  await app.register(fastifyTRPCPlugin, stockOptions);
  const appBase = await app.listen({ port: 0, host: '127.0.0.1' });

  const plain = Fastify();
  plain.get('/bench/bare', async () => ({ user: 'bench', level: 3 }));
  const plainBase = await plain.listen({ port: 0, host: '127.0.0.1' });

  const servers: Servers = { plain: plainBase, app: appBase, cookie: site.cookie };
  process.stdout.write(`${JSON.stringify(servers)}\n`);
  serveUntilStdinEnds(site, async () => {
    await plain.close();
    await app.close();
  });
}

async function startServers(): Promise<{ servers: Servers; pid: number; stop: () => void }> {
  const { process: child, info: servers } = await startBenchProcess<Servers>(import.meta.url, ['--serve']);
  return { servers, pid: child.pid as number, stop: () => child.stdin.end() };
}

type Target = { name: string; method: 'GET' | 'POST'; url: string };

type Load = { requests: number; seconds: number; serverCpuMs: number };

/** `seconds` of load on one target; with the server process's CPU time spent meanwhile. */
async function load(target: Target, cookie: string, seconds: number, serverPid: number): Promise<Load> {
  const check = await fetch(target.url, { method: target.method, headers: { cookie } });
  const text = await check.text();
  if (!check.ok || !text.includes('bench')) throw new Error(`${target.name} answered ${check.status}: ${text}`);
  const cpuBefore = cpuOf(serverPid)[0];
  const result = await autocannon({
    url: target.url,
    method: target.method,
    headers: { cookie },
    connections: CONNECTIONS,
    duration: seconds,
    maxOverallRequests: 5_000_000,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requests: result.requests.total, seconds: result.duration, serverCpuMs: cpuOf(serverPid)[0] - cpuBefore };
}

async function main(): Promise<void> {
  const { servers, pid, stop } = await startServers();
  const status = `?batch=1&input=${encodeURIComponent('{}')}`;
  const targets: Target[] = [
    { name: 'bare Fastify route', method: 'GET', url: `${servers.plain}/bench/bare` },
    { name: 'tRPC auth.status (batch GET)', method: 'GET', url: `${servers.app}/trpc/auth.status${status}` },
    { name: '/api/login_status', method: 'POST', url: `${servers.app}/api/login_status` },
    { name: '(bare route inside the app)', method: 'GET', url: `${servers.app}/bench/bare` },
    { name: '(stock tRPC fastify adapter)', method: 'GET', url: `${servers.app}/trpc-stock/auth.status${status}` },
  ];
  try {
    // Interleaved rounds, so that a change in background load hits every target alike;
    // each ratio is the median of its rounds' ratios (one round's burst of load moves it little).
    for (const target of targets) await load(target, servers.cookie, 1, pid); // warm up the JIT and the session cache
    const rounds: number[][] = [];
    const cpuRounds: number[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const rates: number[] = [];
      const cpu: number[] = [];
      for (const target of targets) {
        const r = await load(target, servers.cookie, ROUND_SECONDS, pid);
        rates.push(r.seconds ? r.requests / r.seconds : 0);
        cpu.push(r.requests ? (r.serverCpuMs * 1000) / r.requests : 0);
      }
      rounds.push(rates);
      cpuRounds.push(cpu);
    }
    // One target's median over the rounds.
    const column = (rows: number[][], i: number) => median(rows.map((r) => r[i] ?? 0));
    const cpuOfTarget = (i: number) => column(cpuRounds, i);
    const rateOf = (i: number) => column(rounds, i);
    const ratioOf = (i: number) => rounds.map((r) => ((r[0] ?? 0) > 0 ? (r[i] ?? 0) / (r[0] ?? 1) : 0));
    console.log(`\nHTTP bench, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s per target (medians of the rounds), Node ${process.version}, ${buildLabel}`);
    targets.forEach((t, i) =>
      console.log(`  ${t.name.padEnd(32)} ${Math.round(rateOf(i)).toString().padStart(7)} req/s   server CPU ${cpuOfTarget(i).toFixed(1).padStart(5)} µs/request`),
    );
    const ratio = (i: number) => {
      const all = ratioOf(i);
      return `${median(all).toFixed(2)}   (rounds ${Math.min(...all).toFixed(2)}-${Math.max(...all).toFixed(2)})`;
    };
    console.log(`  ratio tRPC / bare               ${ratio(1)}   (goal >= 0.5)`);
    console.log(`  ratio /api / bare               ${ratio(2)}   (goal >= 0.5)`);
    // Throughput is what the goal names; CPU per request says what the server itself costs, whatever
    // limits the load (autocannon, on the other core, limits the bare route).
    console.log(`  (server CPU per request, bare / tRPC ${(cpuOfTarget(0) / cpuOfTarget(1)).toFixed(2)}, bare / api ${(cpuOfTarget(0) / cpuOfTarget(2)).toFixed(2)})`);
    console.log(`  (app's own hooks: in-app bare / bare ${median(ratioOf(3)).toFixed(2)}; stock adapter / bare ${median(ratioOf(4)).toFixed(2)})`);
  } finally {
    stop();
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
