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

/**
 * Bundles several entries (TypeScript files anywhere in the repository: the command-line tools, a
 * benchmark's process) with the server's options into `outdir`, which must be under server/ for
 * the dependencies to resolve; code they share goes in chunks beside them. Answers each entry's
 * bundle by its name. The tests run the tools this way (a plain `node` of a bundle made once per
 * run) instead of through tsx, whose loader transforms and resolves every module of the server
 * again in each process: about 3.5 s of CPU more per command on the 2-core CI machine.
 */
export async function bundleEntries({ entries, outdir, external = [] }) {
  const { build } = await import('esbuild');
  const { entryPoints: _entry, outfile: _outfile, ...options } = serverBuildOptions({ entry: '', outfile: '', external });
  await build({ ...options, entryPoints: entries, outdir, splitting: true, chunkNames: 'chunks/[name]-[hash]', entryNames: '[name]', outExtension: { '.js': '.mjs' } });
  return Object.fromEntries(Object.keys(entries).map((name) => [name, `${outdir}/${name}.mjs`]));
}
