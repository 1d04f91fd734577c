// How the server is bundled (build.mjs) and how bench:http bundles its server process the same way:
// our workspace packages (@site/*) are compiled in, every real npm dependency stays external and is
// loaded from node_modules at run time, so the bundle must be written where server/node_modules and
// the root node_modules resolve (server/dist).
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const dependencies = Object.keys(manifest.dependencies ?? {}).filter((name) => !name.startsWith('@site/'));

/** esbuild options for one entry; `external` adds packages the entry needs beyond the server's. */
export function serverBuildOptions({ entry, outfile, external = [] }) {
  const all = [...dependencies, ...external];
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    external: [...all, ...all.map((name) => `${name}/*`)],
    logLevel: 'warning',
  };
}
