/**
 * Backup benchmark (issue 20). Prints numbers; asserts nothing.   Run: npm run bench:backup
 *
 * A site on the embedded database (PGlite) with 2,000 small files (BENCH_FILES) and one 1 GiB media
 * file (BENCH_MEDIA_MB) is served by the real server in a child process; `npm run backup -- FILE`
 * asks it over the control socket to write the archive. Prints the time, the archive's size, the
 * server's RSS growth while it runs (goal <= 64 MB: the archive streams, nothing is held whole) and
 * the command's peak RSS, then the time of `npm run backup -- --verify FILE`. With
 * BENCH_DATABASE_URL (an empty PostgreSQL database) the command writes it itself, and its RSS counts.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const FILES = Number(process.env.BENCH_FILES ?? 2000);
const MEDIA_MB = Number(process.env.BENCH_MEDIA_MB ?? 1024);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const MB = 1024 * 1024;

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

function fill(mediaDir: string) {
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(mediaDir, 'pictures', String(i % 50));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${i}.jpg`), randomBytes(1024 + (i % 32) * 1024));
  }
  const fd = fs.openSync(path.join(mediaDir, 'video.mp4'), 'w');
  const chunk = randomBytes(MB);
  for (let i = 0; i < MEDIA_MB; i++) fs.writeSync(fd, chunk);
  fs.closeSync(fd);
}

/** Runs a command, sampling its RSS (and `watch`'s) every 50 ms; resolves with times and peaks. */
function run(args: string[], env: NodeJS.ProcessEnv, watch?: number) {
  const start = performance.now();
  const child = spawn(process.execPath, ['--import', tsx, path.join(repoRoot, 'scripts/src/backup/cli.ts'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let peak = 0;
  let watched = watch ? rssOf(watch) : 0;
  const sampler = setInterval(() => {
    try {
      if (child.pid) peak = Math.max(peak, rssOf(child.pid));
      if (watch) watched = Math.max(watched, rssOf(watch));
    } catch {
      // the process just ended
    }
  }, 50);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise<{ ms: number; peak: number; watched: number; output: string; code: number | null }>((resolve) =>
    child.on('exit', (code) => {
      clearInterval(sampler);
      resolve({ ms: performance.now() - start, peak, watched, output: output.trim(), code });
    }),
  );
}

async function startServer(env: NodeJS.ProcessEnv) {
  const server = spawn(process.execPath, ['--import', tsx, path.join(repoRoot, 'server/src/index.ts')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (c: Buffer) => {
      out += c.toString();
      if (out.includes('site: listening on')) resolve();
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  return server;
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

async function main() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-backup-'));
  try {
    const dataDir = path.join(root, 'data');
    const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    console.log(`Filling a site: ${FILES} small files and one ${MEDIA_MB} MB media file...`);
    fill(path.join(dataDir, 'media'));
    const archive = path.join(root, 'out', 'site.tar.gz');

    console.log('\n1. PGlite: the running server writes the archive (asked by npm run backup over control.sock)');
    const server = await startServer(env);
    const idle = rssOf(server.pid ?? 0);
    const backup = await run(['backup', archive], env, server.pid);
    console.log(`  ${backup.output}`);
    console.log(`  time ${(backup.ms / 1000).toFixed(1)} s   archive ${mb(fs.statSync(archive).size)}`);
    console.log(`  server RSS ${mb(idle)} before, peak ${mb(backup.watched)} (growth ${mb(backup.watched - idle)}, goal <= 64 MB)   command peak RSS ${mb(backup.peak)}`);
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));

    const verify = await run(['backup', '--verify', archive], env);
    console.log(`\n2. npm run backup -- --verify: ${(verify.ms / 1000).toFixed(1)} s, peak RSS ${mb(verify.peak)}\n  ${verify.output}`);

    const url = process.env.BENCH_DATABASE_URL;
    if (url) {
      console.log('\n3. PostgreSQL: npm run backup writes the archive itself');
      fs.rmSync(archive);
      const pg = await run(['backup', archive], { ...env, DATABASE_URL: url });
      console.log(`  ${pg.output}\n  time ${(pg.ms / 1000).toFixed(1)} s   command peak RSS ${mb(pg.peak)}`);
    } else console.log('\n(3. PostgreSQL: set BENCH_DATABASE_URL to an empty database to measure the command on it)');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

await main();
