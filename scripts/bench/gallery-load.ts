/**
 * The gallery under load (bench:pictures, section 4): a gallery page as the client asks for it
 * (GET /trpc/pictures.page, batched) next to /api/login_status, BENCH_CONNECTIONS (50) connections
 * over 127.0.0.1, interleaved rounds in one run. The server is the production bundle in a child
 * process (server-process.ts) on PGlite with BENCH_GALLERY_PICTURES pictures, watching the
 * database's change notifications as `npm start` does.
 * Goal: the gallery page >= 0.3 of /api/login_status's req/s, its p99 <= 20 ms.
 */
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { buildApp } from '@site/server/app';
import { watchDatabaseChanges } from '@site/server/watch-changes';
import { openBenchSite, serveUntilStdinEnds } from './bench-site.ts';
import { buildLabel, startBenchProcess } from './server-process.ts';
import { median } from './stats.ts';

const PICTURES = Number(process.env.BENCH_GALLERY_PICTURES ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);

type Served = { base: string; cookie: string };

/** Child process: the real app on a fresh PGlite holding PICTURES approved pictures. */
export async function serveGallery(): Promise<void> {
  const site = await openBenchSite('bench-gallery-');
  const db = site.deps.db;
  await sql`
    insert into pictures (stem, file_type, mime, size_bytes, caption, year, month, day, status, uploaded_by, thumb_status, thumb_width, thumb_height)
    select md5(i::text), 'jpg', 'image/jpeg', 1000, 'Picture ' || i, 2000 + (i % 25), 1 + (i / 25) % 12, 1 + (i / 300) % 28,
      'approved', 1, 'ready', 400, 300
    from generate_series(1, ${sql.lit(PICTURES)}) as i`.execute(db);
  await sql`delete from picture_days`.execute(db);
  await sql`insert into picture_days (year, month, day, approved)
    select year, month, day, count(*) from pictures where status = 'approved' group by year, month, day`.execute(db);
  await sql`analyze`.execute(db);
  const app = await buildApp(site.deps);
  const watching = watchDatabaseChanges(site.handle, site.deps, app.log);
  await watching.ready;
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ base, cookie: site.cookie } satisfies Served)}\n`);
  serveUntilStdinEnds(site, async () => {
    await app.close();
    await watching.stop();
  });
}

type Target = { name: string; method: 'GET' | 'POST'; url: string; expect: string };
type Round = { rate: number; p99: number };

async function load(target: Target, cookie: string, seconds: number): Promise<Round> {
  const check = await fetch(target.url, { method: target.method, headers: { cookie } });
  const text = await check.text();
  if (!check.ok || !text.includes(target.expect)) throw new Error(`${target.name} answered ${check.status}: ${text.slice(0, 200)}`);
  const result = await autocannon({ url: target.url, method: target.method, headers: { cookie }, connections: CONNECTIONS, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rate: result.requests.total / result.duration, p99: result.latency.p99 };
}

export async function galleryUnderLoad(): Promise<void> {
  console.log(`\n4. A gallery page under load: ${PICTURES} pictures, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s (${buildLabel})`);
  const { process: child, info } = await startBenchProcess<Served>(import.meta.url, ['--serve-gallery']);
  const input = encodeURIComponent(JSON.stringify({ 0: { type: 24, index: 3 } }));
  const targets: Target[] = [
    { name: 'gallery page (pictures.page, 24 a page)', method: 'GET', url: `${info.base}/trpc/pictures.page?batch=1&input=${input}`, expect: 'Pictures 73 - 96' },
    { name: '/api/login_status', method: 'POST', url: `${info.base}/api/login_status`, expect: 'bench' },
  ];
  try {
    for (const target of targets) await load(target, info.cookie, 1); // warm up
    const rounds: Round[][] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const round: Round[] = [];
      for (const target of targets) round.push(await load(target, info.cookie, ROUND_SECONDS));
      rounds.push(round);
    }
    const column = (i: number, pick: (r: Round) => number) => median(rounds.map((r) => (r[i] ? pick(r[i]) : 0)));
    targets.forEach((t, i) =>
      console.log(`  ${t.name.padEnd(40)} ${Math.round(column(i, (r) => r.rate)).toString().padStart(7)} req/s   p99 ${column(i, (r) => r.p99).toFixed(0)} ms`),
    );
    const ratios = rounds.map((r) => (r[0]?.rate ?? 0) / (r[1]?.rate ?? 1));
    console.log(`  ratio gallery / login_status             ${median(ratios).toFixed(2)}   (rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}; goal >= 0.3, p99 <= 20 ms)`);
  } finally {
    child.stdin.end();
  }
}

if (process.argv.includes('--serve-gallery')) await serveGallery();
