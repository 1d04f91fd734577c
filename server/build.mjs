// Bundles the server into dist/index.js (options in build-options.mjs), then writes the OpenAPI
// document's output schemas (dist/openapi-outputs.json) from the procedures' TypeScript answer types:
// the server reads that file for GET /api/openapi.json (src/areas/developers/openapi.outputs.ts).
import path from 'node:path';
import { build } from 'esbuild';
import { tsImport } from 'tsx/esm/api';
import { serverBuildOptions } from './build-options.mjs';

const started = performance.now();
await build(serverBuildOptions({ entry: 'src/index.ts', outfile: 'dist/index.js' }));
const bundled = performance.now();
const { procedures } = await tsImport('@site/contracts', import.meta.url);
const { writeOutputSchemas } = await tsImport('./src/areas/developers/openapi.outputs.ts', import.meta.url);
const written = writeOutputSchemas(import.meta.dirname, Object.keys(procedures), path.join(import.meta.dirname, 'dist', 'openapi-outputs.json'));
const seconds = (ms) => (ms / 1000).toFixed(1);
console.log(`server: bundle ${seconds(bundled - started)} s; output schemas of ${written.procedures} procedures (${written.schemas} named types) ${seconds(performance.now() - bundled)} s`);
