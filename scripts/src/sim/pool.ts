/**
 * Games spread over worker threads. The runs are cut into small ranges handed to whichever worker is
 * free; every row is put back at its game's index, so the result is the same whatever the number of
 * workers and whichever finishes first.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { GameRow, RunSpec } from './games.ts';
import type { WorkAnswer, WorkRequest } from './sim-worker.ts';

const WORKER_FILE = new URL('./sim-worker.mjs', import.meta.url);

export function defaultWorkers(): number {
  return Math.max(1, os.availableParallelism());
}

export interface PoolOptions {
  workers: number;
  onProgress?: (done: number, total: number) => void;
  /** Aborting stops every worker; the promise then rejects with a Stopped error. */
  signal?: AbortSignal;
}

/** Thrown when the run was stopped (Ctrl+C) before every game was played. */
export class Stopped extends Error {
  constructor(
    readonly done: number,
    readonly total: number,
  ) {
    super(`stopped after ${done} of ${total} games`);
  }
}

/** Games per range: small enough to keep every worker busy to the end, big enough to cost few messages. */
function rangeSize(total: number, workers: number): number {
  return Math.max(1, Math.min(50, Math.ceil(total / (workers * 16))));
}

/** Plays every game of every run; result[r][i] is game i of run r. */
export function playRuns(specs: readonly RunSpec[], options: PoolOptions): Promise<GameRow[][]> {
  const total = specs.reduce((n, s) => n + s.games, 0);
  const results = specs.map((s) => new Array<GameRow>(s.games));
  const tasks: WorkRequest[] = [];
  const runOf: number[] = [];
  const size = rangeSize(total, options.workers);
  specs.forEach((spec, run) => {
    for (let from = 0; from < spec.games; from += size) {
      runOf.push(run);
      tasks.push({ task: tasks.length, spec, from, count: Math.min(size, spec.games - from) });
    }
  });
  const count = Math.max(1, Math.min(options.workers, tasks.length));
  return new Promise((resolve, reject) => {
    const workers: Worker[] = [];
    let next = 0;
    let done = 0;
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      for (const worker of workers) void worker.terminate();
      if (error) reject(error);
      else resolve(results);
    };
    const onAbort = () => finish(new Stopped(done, total));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort);
    const feed = (worker: Worker) => {
      const task = tasks[next];
      next += 1;
      if (task) worker.postMessage(task);
    };
    for (let w = 0; w < count; w++) {
      const worker = new Worker(WORKER_FILE);
      workers.push(worker);
      worker.on('message', (answer: WorkAnswer) => {
        if ('error' in answer) return finish(new Error(answer.error));
        const run = results[runOf[answer.task] ?? -1];
        if (!run) return finish(new Error(`A worker answered an unknown task ${answer.task}`));
        for (const row of answer.rows) run[row.index] = row;
        done += answer.rows.length;
        options.onProgress?.(done, total);
        if (done === total) finish(null);
        else feed(worker);
      });
      worker.on('error', (error) => finish(error));
      worker.on('exit', (code) => {
        if (!settled && code !== 0) finish(new Error(`A simulation worker stopped with exit code ${code}`));
      });
      // Two ranges in hand: the worker starts the second while its answer to the first travels to
      // this thread and the next range travels back, instead of waiting for them.
      feed(worker);
      feed(worker);
    }
  });
}
