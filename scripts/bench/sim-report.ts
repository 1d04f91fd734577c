/**
 * npm run bench:sim-report - the game testers' lab (`npm run sim -- report`).
 *
 *   1. GAMES greedy games on 1 worker thread, then on 2 (each after a warm-up of its workers' start): the
 *      speed-up, and that both give the same rows (goal: >= 1.7x on a 2-core machine).
 *   2. The report of those games (statistics, the outliers replayed for their links, report.json,
 *      games.csv, report.html): its time against the 2-worker simulation's (goal: <= 10 % more) and the
 *      size of report.html (goal: < 500 KB).
 * Bounded: GAMES games three times (about a minute at 500 games/s a core).
 *
 * Run as `npm run sim` runs (`tsx --single-threaded-gc`): V8's collector helper threads would take the
 * cores the game workers use (measured on 2 idle cores: 1.68x with them, 1.73-1.76x without, one
 * worker alone 2 % slower).
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { playRuns } from '../src/sim/pool.ts';
import type { RunSpec } from '../src/sim/games.ts';
import { reportFiles, reportRuns } from '../src/sim/report-cli.ts';
import type { ReportArgs } from '../src/sim/args.ts';
import { DEFAULT_MAX_ROUNDS } from '../src/sim/simulate.ts';

const GAMES = Number(process.env.BENCH_GAMES ?? 10_000);
const GOAL_SPEEDUP = 1.7;
const GOAL_OVERHEAD = 0.1;
const GOAL_HTML_BYTES = 500 * 1024;

const args: ReportArgs = { seed: 'bench', games: GAMES, policies: ['greedy'], maxRounds: DEFAULT_MAX_ROUNDS, set: {}, compare: false, workers: null, out: '', site: null };
const specs: RunSpec[] = reportRuns(args).map((r) => r.spec);
function firstSpec(): RunSpec {
  const spec = specs[0];
  if (!spec) throw new Error('no run to time');
  return spec;
}

async function timed(workers: number): Promise<{ seconds: number; json: string; rows: Awaited<ReturnType<typeof playRuns>> }> {
  // Start-up (threads, the TypeScript loader) is paid once per run; a tiny run first keeps it out of the rate.
  await playRuns([{ ...firstSpec(), games: workers * 2 }], { workers });
  const started = performance.now();
  const rows = await playRuns(specs, { workers });
  return { seconds: (performance.now() - started) / 1000, json: JSON.stringify(rows), rows };
}

/**
 * What the machine allows at the moment: the same pure computation (no allocation, no messages) on 1
 * thread and on 2 at once. On 2 idle cores it is about 2x; when other processes share them, the
 * simulation's speed-up is to be read against this one, measured in the same run.
 */
async function machineSpeedup(): Promise<number> {
  const spin = `const { parentPort } = require('node:worker_threads');
    let x = 0; for (let i = 0; i < 4e8; i++) x = (x * 31 + i) | 0;
    parentPort.postMessage(x);`;
  const run = async (threads: number) => {
    const started = performance.now();
    await Promise.all(Array.from({ length: threads }, () => new Promise((resolve, reject) => {
      const worker = new Worker(spin, { eval: true });
      worker.once('message', (x) => void worker.terminate().then(() => resolve(x)));
      worker.once('error', reject);
    })));
    return performance.now() - started;
  };
  const single = await run(1);
  const double = await run(2);
  return (2 * single) / double;
}

const machine = await machineSpeedup();
const one = await timed(1);
const two = await timed(2);
const speedup = one.seconds / two.seconds;
const same = one.json === two.json;

const started = performance.now();
const files = reportFiles(args, reportRuns(args).map((r, i) => ({ ...r, rows: two.rows[i] ?? [] })), {});
const reportSeconds = (performance.now() - started) / 1000;
const overhead = reportSeconds / two.seconds;
const htmlBytes = Buffer.byteLength(files.html);

const cpus = os.cpus().length;
const load = os.loadavg()[0] ?? 0;
const lines = [
  `machine: ${cpus} cores, load average ${load.toFixed(2)} at the end (other processes share the cores)`,
  `${GAMES} greedy games, 1 worker:  ${one.seconds.toFixed(2)} s (${(GAMES / one.seconds).toFixed(0)} games/s)`,
  `${GAMES} greedy games, 2 workers: ${two.seconds.toFixed(2)} s (${(GAMES / two.seconds).toFixed(0)} games/s)`,
  `speed-up ${speedup.toFixed(2)}x (goal >= ${GOAL_SPEEDUP}x) ${speedup >= GOAL_SPEEDUP ? 'OK' : 'BELOW GOAL'}; same rows: ${same ? 'yes' : 'NO'}`,
  `the machine's own speed-up at the time (a pure computation on 1 thread, then on 2): ${machine.toFixed(2)}x; the simulation's is ${((speedup / machine) * 100).toFixed(0)} % of it`,
  `report (statistics, ${files.report.runs.length * 3} outliers replayed, JSON, CSV, HTML): ${reportSeconds.toFixed(2)} s = ${(overhead * 100).toFixed(1)} % of the 2-worker simulation (goal <= ${GOAL_OVERHEAD * 100} %) ${overhead <= GOAL_OVERHEAD ? 'OK' : 'ABOVE GOAL'}`,
  `report.html ${(htmlBytes / 1024).toFixed(1)} KB (goal < ${GOAL_HTML_BYTES / 1024} KB) ${htmlBytes < GOAL_HTML_BYTES ? 'OK' : 'ABOVE GOAL'}; report.json ${(Buffer.byteLength(files.json) / 1024).toFixed(1)} KB; games.csv ${(Buffer.byteLength(files.csv) / 1024).toFixed(1)} KB`,
];
process.stdout.write(`${lines.join('\n')}\n`);
if (!same) process.exitCode = 1;
