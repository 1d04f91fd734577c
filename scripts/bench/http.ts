/**
 * HTTP throughput: a bare Fastify route, the tRPC status query (as @trpc/client's batch link sends
 * it) and /api/login_status, both with a valid session cookie, over 127.0.0.1.
 * The servers run in a child process and autocannon in this one, so the load generator never
 * shares the servers' event loop (on 2 cores: one core each).
 * Goal: both ratios to the bare route >= 0.5.   Run: npm run bench:http
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { buildApp, createDeps } from '@site/server/app';
import { loadConfig } from '@site/server/config';
import { createContext } from '@site/server/trpc/context';
import { appRouter, type AppRouter } from '@site/server/trpc/root';
import { createDb } from '@site/server/db/database';
import { migrateToLatest } from '@site/server/db/migrate';
import * as auth from '@site/server/areas/auth/auth.service';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

type Servers = { plain: string; app: string; cookie: string };

/** Child process: a bare Fastify instance and the real app, each on its own port. */
async function serve(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', CLIENT_DIST: path.join(dataDir, 'no-client') });
  const handle = await createDb({ kind: 'pglite', dataDir });
  await migrateToLatest(handle.db);
  const deps = createDeps(config, handle.db);
  const app = await buildApp(deps);
  app.get('/bench/bare', async () => ({ user: 'bench', level: 3 }));
  // For reference only: the same router behind tRPC's stock Fastify adapter.
  const stockOptions: FastifyTRPCPluginOptions<AppRouter> = {
    prefix: '/trpc-stock',
    trpcOptions: { router: appRouter, createContext: ({ req, res }) => createContext(deps, req, res) },
  };
  await app.register(fastifyTRPCPlugin, stockOptions);
  const appBase = await app.listen({ port: 0, host: '127.0.0.1' });

  const plain = Fastify();
  plain.get('/bench/bare', async () => ({ user: 'bench', level: 3 }));
  const plainBase = await plain.listen({ port: 0, host: '127.0.0.1' });

  const user = await auth.signup(deps, { name: 'bench', password: 'bench-password', confirmPassword: 'bench-password' }, { ip: '127.0.0.1', deviceToken: null });
  const cookie = `sid=${(await deps.sessions.create(user.id)).token}`;
  const servers: Servers = { plain: plainBase, app: appBase, cookie };
  process.stdout.write(`${JSON.stringify(servers)}\n`);

  // Runs until the parent closes our stdin.
  process.stdin.resume();
  process.stdin.on('end', () => {
    void (async () => {
      await plain.close();
      await app.close();
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    })();
  });
}

async function startServers(): Promise<{ servers: Servers; stop: () => void }> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [...process.execArgv, self, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const servers = await new Promise<Servers>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n')[0];
      if (buffered.includes('\n') && line) resolve(JSON.parse(line) as Servers);
    });
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { servers, stop: () => child.stdin.end() };
}

type Target = { name: string; method: 'GET' | 'POST'; url: string };

async function load(target: Target, cookie: string, seconds: number): Promise<{ requests: number; seconds: number }> {
  const check = await fetch(target.url, { method: target.method, headers: { cookie } });
  const text = await check.text();
  if (!check.ok || !text.includes('bench')) throw new Error(`${target.name} answered ${check.status}: ${text}`);
  const result = await autocannon({
    url: target.url,
    method: target.method,
    headers: { cookie },
    connections: CONNECTIONS,
    duration: seconds,
    maxOverallRequests: 5_000_000,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requests: result.requests.total, seconds: result.duration };
}

async function main(): Promise<void> {
  const { servers, stop } = await startServers();
  const status = `?batch=1&input=${encodeURIComponent('{}')}`;
  const targets: Target[] = [
    { name: 'bare Fastify route', method: 'GET', url: `${servers.plain}/bench/bare` },
    { name: 'tRPC auth.status (batch GET)', method: 'GET', url: `${servers.app}/trpc/auth.status${status}` },
    { name: '/api/login_status', method: 'POST', url: `${servers.app}/api/login_status` },
    { name: '(bare route inside the app)', method: 'GET', url: `${servers.app}/bench/bare` },
    { name: '(stock tRPC fastify adapter)', method: 'GET', url: `${servers.app}/trpc-stock/auth.status${status}` },
  ];
  try {
    // Interleaved one-second rounds, so that a change in background load hits every target alike.
    for (const target of targets) await load(target, servers.cookie, 1); // warm up the JIT and the session cache
    const totals = targets.map(() => ({ requests: 0, seconds: 0 }));
    for (let round = 0; round < SECONDS; round++) {
      for (const [i, target] of targets.entries()) {
        const r = await load(target, servers.cookie, 1);
        const total = totals[i];
        if (total) {
          total.requests += r.requests;
          total.seconds += r.seconds;
        }
      }
    }
    const rates = totals.map((t) => (t.seconds ? t.requests / t.seconds : 0));
    const [bare = 0, trpc = 0, legacy = 0, inApp = 0, stock = 0] = rates;
    console.log(`\nHTTP bench, ${CONNECTIONS} connections, ${SECONDS} s per target, Node ${process.version}`);
    targets.forEach((t, i) => console.log(`  ${t.name.padEnd(32)} ${Math.round(rates[i] ?? 0).toString().padStart(7)} req/s`));
    const ratio = (n: number) => (bare ? n / bare : 0).toFixed(2);
    console.log(`  ratio tRPC / bare               ${ratio(trpc)}   (goal >= 0.5)`);
    console.log(`  ratio /api / bare               ${ratio(legacy)}   (goal >= 0.5)`);
    console.log(`  (app's own hooks: in-app bare / bare ${ratio(inApp)}; stock adapter / bare ${ratio(stock)})`);
  } finally {
    stop();
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
