import { defineConfig } from 'vitest/config';
import { reporters } from '../vitest.shared.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The S3 pass (npm run test:s3: the import test again, media in an s3rver bucket) reports apart.
    reporters: reporters(process.env.TEST_MEDIA_STORE === 's3' ? 'scripts-s3' : 'scripts'),
    // Several tests start the command-line tools as child processes (node + tsx, about 1-2 s each on
    // a busy machine); vitest's 5 s default is too tight for three in a row.
    testTimeout: 60_000,
    // Two files at once even on 2 cores (vitest's default there is one): the slow files (user/, recipes/)
    // spend their time in the command-line tools' own processes.
    maxWorkers: 2,
  },
});
