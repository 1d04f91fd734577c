/** A worker thread of `npm run sim -- report --workers N`: plays the ranges of games it is sent. */
import { parentPort } from 'node:worker_threads';
import { playRange } from './games.ts';
import type { RunSpec } from './games.ts';

export interface WorkRequest {
  task: number;
  spec: RunSpec;
  from: number;
  count: number;
}

export type WorkAnswer = { task: number; rows: ReturnType<typeof playRange> } | { task: number; error: string };

parentPort?.on('message', (request: WorkRequest) => {
  try {
    parentPort?.postMessage({ task: request.task, rows: playRange(request.spec, request.from, request.count) } satisfies WorkAnswer);
  } catch (error) {
    parentPort?.postMessage({ task: request.task, error: (error as Error).message } satisfies WorkAnswer);
  }
});
