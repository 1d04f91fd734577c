import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { DevRunStatus } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { commandEnvironment, type DevCommand } from './dev-commands.ts';
import * as repo from './dev-dashboard.repository.ts';

/** How much of the output is kept (the end of it), in the database and on the page. */
export const OUTPUT_MAX_CHARS = 64 * 1024;
/** How often the output of a running action is written to its row, where the page polls it. */
const FLUSH_MS = 250;
/** After SIGTERM, how long the process group has before SIGKILL. */
const KILL_GRACE_MS = 3000;
/** After the program exits, how long its output pipes may stay open (a child it left behind holds them). */
const PIPE_GRACE_MS = 1000;

// eslint-disable-next-line no-control-regex -- terminal colour codes and NUL, which PostgreSQL text refuses
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u0000/g;

/** The end of the text, cut at a line start so no half line leads it. */
export function keepTail(text: string, max = OUTPUT_MAX_CHARS): string {
  if (text.length <= max) return text;
  const cut = text.slice(text.length - max);
  const newline = cut.indexOf('\n');
  return newline >= 0 && newline < cut.length - 1 ? cut.slice(newline + 1) : cut;
}

type Active = { child: ChildProcess; stop: (status: DevRunStatus) => void; done: Promise<void> };

export type Runner = {
  /** Runs the command for an inserted 'running' row; the row is finished when it ends. */
  start(runId: number, command: DevCommand, timeoutSeconds: number): Promise<void>;
  /** Ends every run of this process (server shutting down) and waits for their rows to be written. */
  stopAll(): Promise<void>;
};

/**
 * Starts the owner's program from its argument array (never a shell, nothing from a request), in its
 * own process group so the time limit ends it and everything it started. Output goes to the run's
 * row as it comes; the end of the run writes status, exit code and duration.
 */
export function createRunner(deps: AppDeps): Runner {
  const active = new Map<number, Active>();

  return {
    start(runId, command, timeoutSeconds) {
      const started = Date.now();
      let output = '';
      let dirty = false;
      let forced: DevRunStatus | null = null;
      let finished = false;
      let flushing: Promise<unknown> = Promise.resolve();
      let resolveDone!: () => void;
      const done = new Promise<void>((resolve) => (resolveDone = resolve));

      const append = (text: string) => {
        const clean = text.replace(ANSI, '').replace(/\r\n/g, '\n').replace(/\r/g, '\n');
        if (clean === '') return;
        output = keepTail(output + clean);
        dirty = true;
      };

      const [program, ...args] = command.argv as [string, ...string[]];
      const child = spawn(program, args, {
        cwd: command.cwd,
        shell: false,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: commandEnvironment(command),
      });

      const flush = () => {
        if (!dirty || finished) return;
        dirty = false;
        const snapshot = output;
        flushing = flushing.then(() => repo.saveOutput(deps.db, runId, snapshot)).catch(() => undefined);
      };
      const flusher = setInterval(flush, FLUSH_MS);

      const killGroup = (signal: NodeJS.Signals) => {
        if (child.pid === undefined) return;
        try {
          process.kill(-child.pid, signal);
        } catch {
          // the group is gone already
        }
      };
      let killTimer: NodeJS.Timeout | undefined;
      const stop = (status: DevRunStatus) => {
        if (forced !== null || finished) return;
        forced = status;
        append(status === 'timed out' ? `\n[stopped: the time limit of ${timeoutSeconds} s was reached]\n` : '\n[stopped: the server is shutting down]\n');
        killGroup('SIGTERM');
        killTimer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
      };
      const limit = setTimeout(() => stop('timed out'), timeoutSeconds * 1000);

      const finish = async (status: DevRunStatus, exitCode: number | null) => {
        if (finished) return;
        finished = true;
        clearInterval(flusher);
        clearTimeout(limit);
        if (killTimer) clearTimeout(killTimer);
        // Whatever the program started and left behind in its group goes with it.
        if (status !== 'could not start') killGroup('SIGKILL');
        await flushing;
        await repo
          .finishRun(deps.db, runId, { status, exit_code: exitCode, duration_ms: Date.now() - started, output })
          .catch(() => undefined);
        active.delete(runId);
        resolveDone();
      };

      const decoders = { out: new StringDecoder('utf8'), err: new StringDecoder('utf8') };
      const openPipes = new Set(['out', 'err']);
      let pipesClosed: () => void = () => {};
      const allClosed = new Promise<void>((resolve) => (pipesClosed = resolve));
      for (const [name, stream] of [
        ['out', child.stdout],
        ['err', child.stderr],
      ] as const) {
        stream?.on('data', (chunk: Buffer) => append(decoders[name].write(chunk)));
        stream?.on('close', () => {
          append(decoders[name].end());
          openPipes.delete(name);
          if (openPipes.size === 0) pipesClosed();
        });
      }

      child.once('error', (error: NodeJS.ErrnoException) => {
        append(`Could not start ${program}: ${error.code === 'ENOENT' ? 'no such program (or cwd does not exist)' : error.message}\n`);
        void finish('could not start', null);
      });
      child.once('exit', (code, signal) => {
        void (async () => {
          await Promise.race([allClosed, new Promise((resolve) => setTimeout(resolve, PIPE_GRACE_MS))]);
          child.stdout?.destroy();
          child.stderr?.destroy();
          if (signal && forced === null) append(`\n[ended by signal ${signal}]\n`);
          const status: DevRunStatus = forced ?? (code === 0 ? 'succeeded' : 'failed');
          await finish(status, code);
        })();
      });

      active.set(runId, { child, stop, done });
      return Promise.resolve();
    },

    async stopAll() {
      const runs = [...active.values()];
      for (const run of runs) run.stop('interrupted');
      await Promise.all(runs.map((run) => run.done));
    },
  };
}

const runners = new WeakMap<AppDeps, Runner>();

/** The runner of this server process (one per set of deps, so each test server has its own). */
export function runnerFor(deps: AppDeps): Runner {
  let runner = runners.get(deps);
  if (!runner) runners.set(deps, (runner = createRunner(deps)));
  return runner;
}
