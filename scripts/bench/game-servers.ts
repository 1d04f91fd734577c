/**
 * `npm run bench:game-servers` (issue 33): a game server on 127.0.0.1 that streams without end, asked
 * BENCH_QUERIES (3) times in a row as the Game Servers page would, while this same process answers a
 * small HTTP request every 20 ms (the site's other requests). Prints, for GameDig reading everything
 * (before: no cap) and with the per-query cap (after), the bytes each query read, the latency of those
 * other requests (median and max), the event loop's longest stall and the memory taken. Then the Game
 * Servers list with two servers that never answer (a silent UDP port: each query runs to its time
 * limit): how long the list takes to answer now, and how long the queries take (what it waited before).
 * Asserts nothing.
 */
import dgram from 'node:dgram';
import { sql } from 'kysely';
import * as gameServers from '@site/server/areas/game-servers/game-servers.service';
import { openBenchSite } from './bench-site.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createGameQuery, GAME_QUERY_MAX_BYTES } from '@site/server/areas/game-servers/game-query';
import { startEndlessTcp } from '@site/server/testing/hostile-game-server';
import { percentile } from './stats.ts';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 3);

function ping(base: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/ping`, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - start));
      })
      .on('error', reject);
  });
}

async function run(label: string, maxBytes: number, base: string, port: number): Promise<void> {
  const reads: number[] = [];
  const query = createGameQuery({ maxBytes, onRead: (bytes) => reads.push(bytes) });
  const latencies: number[] = [];
  let running = true;
  const pinger = (async () => {
    while (running) {
      latencies.push(await ping(base));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  for (let i = 0; i < QUERIES; i++) await query('minecraft', '127.0.0.1', port);
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await pinger;
  loop.disable();
  clearInterval(sampler);
  const kb = (n: number) => `${Math.round(n / 1024)} KB`;
  console.log(
    `${label}: ${QUERIES} queries in ${seconds.toFixed(1)} s, read ${reads.map(kb).join(', ')}; ` +
      `other requests (${latencies.length}): median ${percentile(latencies, 50).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms; ` +
      `event loop stall max ${(loop.max / 1e6).toFixed(0)} ms; RSS +${Math.round((rssPeak - rssBefore) / 1024 / 1024)} MB`,
  );
}

/** The list with servers that never answer: its answer time, and the queries' (which the list used to wait for). */
async function offlineList(): Promise<void> {
  const silent = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
  const port = silent.address().port;
  const site = await openBenchSite('bench-game-servers-', { GAME_HOST: '127.0.0.1' });
  try {
    await site.handle.db.insertInto('game_servers').values([
      { port, description: 'Valheim (down)', game: 'valheim' },
      { port: port + 1 === 65536 ? port - 1 : port + 1, description: 'Rust (down)', game: 'rust' },
    ]).execute();
    const lists: number[] = [];
    const queries: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      // As if the 30 s had passed: this list wins the claim and queries.
      await sql`update game_server_status set claimed_at = claimed_at - interval '31 seconds'`.execute(site.handle.db);
      const started = performance.now();
      await gameServers.list(site.deps);
      lists.push(performance.now() - started);
      await gameServers.queriesSettled(site.deps);
      queries.push(performance.now() - started);
    }
    console.log(
      `list with 2 servers that never answer: answered in median ${percentile(lists, 50).toFixed(0)} ms (max ${Math.max(...lists).toFixed(0)} ms); ` +
        `the queries took median ${(percentile(queries, 50) / 1000).toFixed(1)} s (the list waited that long before)`,
    );
  } finally {
    await site.close();
    silent.close();
  }
}

const server = http.createServer((_req, res) => res.end('ok'));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const hostile = await startEndlessTcp();
try {
  await run('before (no cap)', Number.POSITIVE_INFINITY, base, hostile.port);
  await run(`after (cap ${GAME_QUERY_MAX_BYTES / 1024} KB)`, GAME_QUERY_MAX_BYTES, base, hostile.port);
} finally {
  await hostile.close();
  server.close();
}
await offlineList();
