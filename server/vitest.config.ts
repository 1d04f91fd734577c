import { defineConfig } from 'vitest/config';
import { reporters } from '../vitest.shared.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: reporters('server'),
    // Every file starts its own PGlite (a WebAssembly PostgreSQL): slow to boot on a loaded 2-core CI box.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
