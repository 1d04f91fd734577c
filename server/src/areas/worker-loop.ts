/**
 * The loop of an area's background worker (pictures queue, notifications, backup scheduler): runs
 * `step` again at once while it reports work done, else sleeps `idleMs` or until `wake()`. A wake
 * that arrives while a step runs starts the next step at once, so a nudge is never lost. A step that
 * throws (the database away for a moment, or closing) is tried again after the pause. Everything a
 * worker works from is in the database, so stopping between two steps loses nothing.
 */
export type WorkerLoop = {
  /** Ends the sleep now (an upload's nudge, a NOTIFY), or marks the next step due. */
  wake(): void;
  /** True once stop() was called: a long step checks it between its parts. */
  stopped(): boolean;
  /** Stops after the current step and waits for it. */
  stop(): Promise<void>;
};

export function startWorkerLoop(step: () => Promise<boolean>, idleMs: number | (() => number), first?: Promise<unknown>): WorkerLoop {
  let stopped = false;
  let woken = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    await first;
    while (!stopped) {
      woken = false;
      let worked = false;
      try {
        worked = await step();
      } catch {
        // Tried again after the pause.
      }
      if (stopped) break;
      if (worked || woken) continue;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, typeof idleMs === 'number' ? idleMs : idleMs());
      });
      clearTimeout(timer);
      wake = undefined;
    }
  })();
  return {
    wake() {
      woken = true;
      wake?.();
    },
    stopped: () => stopped,
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
