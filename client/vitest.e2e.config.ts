import { defineConfig } from 'vitest/config';
import { reporters } from '../vitest.shared.ts';

/** Browser tests: real Chromium against the built client served by the real built server. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    environment: 'node',
    // Two files at once: each has its own server, database and browser, and a file spends much of
    // its time waiting for them.
    maxWorkers: 2,
    // A worker runs its next file in the same process (playwright-core and the harness loaded once,
    // not a new process per file): the files keep no state in shared modules, and each still starts
    // its own server and browser contexts.
    isolate: false,
    // The longest stories (albums, people, tower-daily, recipes) take 40-60 s on a loaded 2-core CI
    // box, the albums one 56-60 s: twice that, so a test fails on what it checks, not on the clock.
    testTimeout: 120_000,
    // expect.poll asks again for up to 10 s (vitest's default is 1 s): two browsers and two servers
    // on two cores stall for more than a second now and then.
    expect: { poll: { timeout: 10_000, interval: 100 } },
    hookTimeout: 180_000,
    globalSetup: ['./e2e/global-setup.ts'],
    reporters: reporters('client-e2e'),
  },
});
