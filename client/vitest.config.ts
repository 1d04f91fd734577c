import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { reporters } from '../vitest.shared.ts';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    reporters: reporters('client'),
    // Two files at once even on 2 cores (vitest's default there is one): 66 s down to 45 s measured.
    maxWorkers: 2,
    // The longest tests (a whole replay stepped through) take 1-2 s alone and passed 5 s once while the
    // 2 cores also ran other suites: a hang still fails, only later.
    testTimeout: 20_000,
  },
});
