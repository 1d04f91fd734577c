/**
 * Progress of a long run on stderr: a one-line bar redrawn in place on a terminal (games done, rate, time
 * left), and plain lines at every tenth of the run when stderr is a file or a pipe. Short runs stay quiet.
 */

export interface ProgressOptions {
  /** Show from the start when there are more games than this. */
  manyGames?: number;
  /** Otherwise show once the run has taken this long (ms). */
  afterMs?: number;
  now?: () => number;
}

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface Progress {
  update(done: number, total: number): void;
  /** Erases the bar. */
  finish(): void;
}

const REDRAW_MS = 100;

export function createProgress(stream: ProgressStream, total: number, options: ProgressOptions = {}): Progress {
  const now = options.now ?? (() => performance.now());
  const start = now();
  const manyGames = options.manyGames ?? 200;
  const afterMs = options.afterMs ?? 1000;
  let drawn = false;
  let lastDraw = -Infinity;
  let lastTenth = 0;
  const numbers = (done: number, t: number) => {
    const rate = done / Math.max(0.001, (t - start) / 1000);
    const eta = rate > 0 ? (total - done) / rate : 0;
    return `${done}/${total} games, ${rate.toFixed(0)}/s, ${eta.toFixed(0)} s left`;
  };
  if (!stream.isTTY) {
    return {
      update(done) {
        const tenth = Math.floor((done / total) * 10);
        if (tenth <= lastTenth) return;
        lastTenth = tenth;
        const t = now();
        if (total <= manyGames && t - start < afterMs) return;
        stream.write(`${numbers(done, t)}\n`);
      },
      finish() {},
    };
  }
  return {
    update(done) {
      const t = now();
      if (t - lastDraw < REDRAW_MS && done < total) return;
      if (!drawn && total <= manyGames && t - start < afterMs) return;
      lastDraw = t;
      drawn = true;
      const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - 40));
      const filled = Math.round((done / total) * width);
      stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${numbers(done, t)} `);
    },
    finish() {
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}
