import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findRepoRoot } from '../config.ts';

export type SpawnedServer = { url: string; dataDir: string; process: ChildProcess; stop: () => Promise<void>; output: () => string };

/**
 * Starts the built server (`server/dist/index.js`, so run the server build first) on 127.0.0.1 with a
 * fresh temporary DATA_DIR and a free port, and resolves once it listens. For browser tests:
 *   const server = await spawnServer(); ... await server.stop();
 * The first account signed up on it becomes the owner (level 3).
 */
export async function spawnServer(
  opts: { env?: Record<string, string>; dataDir?: string; timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<SpawnedServer> {
  const root = findRepoRoot(path.dirname(new URL(import.meta.url).pathname));
  const entry = path.join(root, 'server', 'dist', 'index.js');
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build -w @site/server\` first`);
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'site-e2e-'));
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), entry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ARGON2_MEMORY_KIB: '4096',
      ARGON2_TIME_COST: '1',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), opts.timeoutMs ?? 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /site: listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, dataDir, process: child, stop, output: () => output };
}
