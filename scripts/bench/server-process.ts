/**
 * How a benchmark starts its server process: as the site runs in production (`npm start`, an esbuild
 * bundle of the server), not through tsx, whose on-the-fly transform (keepNames wrappers among
 * others) costs a /trpc call about a fifth of its speed. The benchmark file itself is bundled with the
 * server's own build options (server/build-options.mjs) into server/dist, where the server's
 * dependencies resolve, and run with `args`. BENCH_FROM_SOURCE=1 runs it through tsx instead;
 * BENCH_NODE_ARGS adds Node options to the bench processes (`--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

type BuildOptionsOf = (o: { entry: string; outfile: string; external?: string[] }) => BuildOptions;

const fromSource = process.env.BENCH_FROM_SOURCE === '1';
export const buildLabel = fromSource ? 'server run from source through tsx' : 'server bundled as by npm run build';

/** The bundle of each benchmark file, built once per run however many child processes run it. */
const bundles = new Map<string, Promise<unknown>>();

/** Node's arguments that run the benchmark file `moduleUrl` (its import.meta.url) with `args`. */
export async function serverProcessArgs(moduleUrl: string, args: string[], nodeArgs: string[] = []): Promise<string[]> {
  const self = fileURLToPath(moduleUrl);
  if (fromSource) return [...process.execArgv, ...nodeArgs, self, ...args];
  const serverDir = path.resolve(path.dirname(self), '..', '..', 'server');
  const outfile = path.join(serverDir, 'dist', `bench-${path.basename(self, '.ts')}.mjs`);
  if (!bundles.has(outfile)) {
    const bundle = async () => {
      const { serverBuildOptions } = (await import(pathToFileURL(path.join(serverDir, 'build-options.mjs')).href)) as { serverBuildOptions: BuildOptionsOf };
      await build(serverBuildOptions({ entry: self, outfile, external: ['autocannon', 'esbuild', 'lighthouse', 'chrome-launcher'] }));
    };
    bundles.set(outfile, bundle());
  }
  await bundles.get(outfile);
  return [...nodeArgs, outfile, ...args];
}

/** The benchmark file `moduleUrl` in a child process with `args`; resolves with the JSON line it prints first. */
export async function startBenchProcess<T>(moduleUrl: string, args: string[]): Promise<{ process: ChildProcessByStdio<Writable, Readable, null>; info: T }> {
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const started = spawn(process.execPath, await serverProcessArgs(moduleUrl, args, nodeArgs), { stdio: ['pipe', 'pipe', 'inherit'] });
  const info = await new Promise<T>((resolve, reject) => {
    let buffered = '';
    let found = false;
    started.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      // The first JSON line is the process's answer; anything else it prints (--trace-gc) is shown.
      for (const line of lines) {
        if (!found && line.startsWith('{')) {
          found = true;
          resolve(JSON.parse(line) as T);
        } else process.stderr.write(`${line}\n`);
      }
    });
    started.on('exit', (code) => reject(new Error(`bench process ${args.join(' ')} exited with ${code}`)));
  });
  return { process: started, info };
}

/** CPU time in ms a process has used: [its own, its reaped children's] (from /proc, in clock ticks of 10 ms). */
export function cpuOf(pid: number | 'self'): [number, number] {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = (i: number) => Number(fields[i] ?? 0) * 10;
  return [ticks(11) + ticks(12), ticks(13) + ticks(14)];
}
