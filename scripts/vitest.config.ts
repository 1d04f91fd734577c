import { defineConfig } from 'vitest/config';
import { reporters } from '../vitest.shared.ts';

export default defineConfig({
  test: {
    reporters: reporters('scripts'),
    // Bundles the command-line tools and migrates a DATA_DIR once per run (src/testing/global-setup.ts).
    globalSetup: ['./src/testing/global-setup.ts'],
    // Several tests start the command-line tools as child processes (about 1-2 s each on a busy
    // machine); vitest's 5 s default is too tight for three in a row.
    testTimeout: 60_000,
    // Two files at once even on 2 cores (vitest's default there is one): the slow files (user/, recipes/)
    // spend their time in the command-line tools' own processes.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'scripts', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } },
      // The import test again with media in an s3rver bucket (docs/storage.md), in the same run: it
      // runs beside the other files instead of alone after them.
      { extends: true, test: { name: 'scripts-s3', include: ['src/pictures/import.test.ts'], env: { TEST_MEDIA_STORE: 's3' } } },
    ],
  },
});
