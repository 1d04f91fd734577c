import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { reporters } from '../vitest.shared.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The S3 pass (npm run test:s3: the pictures and albums tests that move bytes, again with media in an s3rver bucket) reports apart.
    reporters: reporters(process.env.TEST_MEDIA_STORE === 's3' ? 'server-s3' : 'server'),
    // Migrates a PGlite and a PostgreSQL template once per run; createTestDb copies them (test/helpers.ts).
    globalSetup: ['./test/global-setup.ts'],
    // Every file starts its own PGlite (a WebAssembly PostgreSQL): slow to boot on a loaded 2-core CI box.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two files at once even on 2 cores (vitest's default there is one): much of a file's time is
    // spent waiting on PostgreSQL, child processes (yt-dlp, ffmpeg, the built server) and timers.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // A worker keeps the modules it loaded from one test file to the next: importing the app (every
    // area, fastify, kysely, sharp...) through vitest's module runner costs several seconds a file on
    // a busy 2-core box. The server keeps no process-wide state between apps (its caches are keyed by
    // app or database), and each file still builds its own app and databases.
    isolate: false,
  },
});
