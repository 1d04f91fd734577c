import { useEffect, useState } from 'react';
import { afterLoadWhenIdle } from './idle.ts';

/** Once the first page's load and idle moment have passed, later components need not wait for them. */
let passed = false;

/**
 * False until the page has loaded and the browser has been idle (afterLoadWhenIdle: at most
 * `timeoutMs` after the load), then true for good: what the first screen and its first taps do not
 * need (the bell's count, the live feed of the admins' waiting count) starts then, not in the tasks
 * that paint the page.
 */
export function useAfterLoadIdle(timeoutMs?: number): boolean {
  const [done, setDone] = useState(passed);
  useEffect(() => {
    if (done) return;
    return afterLoadWhenIdle(() => {
      passed = true;
      setDone(true);
    }, timeoutMs);
  }, [done, timeoutMs]);
  return done;
}
