// Bundles the server into dist/index.js (options in build-options.mjs).
import { build } from 'esbuild';
import { serverBuildOptions } from './build-options.mjs';

await build(serverBuildOptions({ entry: 'src/index.ts', outfile: 'dist/index.js' }));
