/**
 * Runs `run` once, after the page has loaded, when the browser is idle (or `timeoutMs` after the load
 * at the latest): work the first screen does not need stays out of the tasks that paint it and answer
 * the first taps. Returns a function that cancels it if it has not run.
 */
export function afterLoadWhenIdle(run: () => void, timeoutMs = 2000): () => void {
  let cancelled = false;
  let idle: number | undefined;
  const schedule = () => {
    if (cancelled) return;
    const once = () => {
      if (!cancelled) run();
    };
    idle = window.requestIdleCallback ? window.requestIdleCallback(once, { timeout: timeoutMs }) : window.setTimeout(once, 200);
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', schedule);
    if (idle !== undefined) (window.cancelIdleCallback ?? window.clearTimeout)(idle);
  };
}
