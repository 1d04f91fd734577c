/**
 * YT-DL: a 300 MB MP4 served on 127.0.0.1, downloaded (1) by yt-dlp run directly and (2) through
 * the site (POST /api/ytdl/download: yt-dlp behind the guard proxy into a temporary folder, then
 * the file streamed to the caller), in alternating rounds of the same run. Prints the ratio of wall
 * times (goal <= 1.3) and the growth of the server's resident memory during the site downloads
 * (goal <= 64 MB: the file streams from disk, it is never held in memory).
 * The site runs in a child process (its RSS read from /proc), the media server and the client here.
 * Run: npm run bench:ytdl   (BENCH_ROUNDS=3 for more rounds; BENCH_MB to change the size)
 */
import { execFile, spawn } from 'node:child_process';
import { createReadStream, createWriteStream, promises as fsp } from 'node:fs';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildApp, createDeps } from '@site/server/app';
import { loadConfig } from '@site/server/config';
import { createDb } from '@site/server/db/database';
import { migrateToLatest } from '@site/server/db/migrate';
import * as auth from '@site/server/areas/auth/auth.service';
import { FORMAT_ARGS } from '@site/server/areas/ytdl/ytdl.runner';

const run = promisify(execFile);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TARGET_MB = Number(process.env.BENCH_MB ?? 300);
const YTDLP = process.env.YTDLP_PATH ?? 'yt-dlp';

/** Child process: the real app on a free port, with downloads from this machine allowed. */
async function serve(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-bench-ytdl-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    CLIENT_DIST: path.join(dataDir, 'no-client'),
    DOWNLOAD_ALLOW_PRIVATE_HOSTS: 'true',
    YTDLP_PATH: YTDLP,
  });
  const handle = await createDb({ kind: 'pglite', dataDir });
  await migrateToLatest(handle.db);
  const deps = createDeps(config, handle.db);
  const app = await buildApp(deps);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const user = await auth.signup(deps, { name: 'bench', password: 'bench-password', confirmPassword: 'bench-password' }, { ip: '127.0.0.1', deviceToken: null });
  const cookie = `sid=${(await deps.sessions.create(user.id)).token}`;
  process.stdout.write(`${JSON.stringify({ base, cookie })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    void (async () => {
      await app.close();
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    })();
  });
}

/** A real MP4 (noisy H.264 video, AAC audio) of about TARGET_MB, made once and kept in the temp folder. */
async function makeMedia(): Promise<string> {
  const file = path.join(os.tmpdir(), `site-bench-ytdl-${TARGET_MB}mb.mp4`);
  if (fs.existsSync(file)) return file;
  const seconds = Math.max(1, Math.round(TARGET_MB / 14));
  console.log(`making a ${TARGET_MB} MB MP4 with ffmpeg (once; kept as ${file}) ...`);
  const partial = `${file}.part.mp4`;
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', 'color=c=gray:s=1280x720:r=30,noise=alls=60:allf=t+u',
    '-f', 'lavfi', '-i', 'sine=frequency=440',
    '-t', String(seconds),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '20', '-c:a', 'aac', '-shortest', '-movflags', '+faststart',
    partial,
  ]);
  await fsp.rename(partial, file);
  return file;
}

/** The video host: the file with Range support, on 127.0.0.1. */
async function serveMedia(file: string): Promise<{ url: string; close: () => Promise<void> }> {
  const size = (await fsp.stat(file)).size;
  const server = http.createServer((req, res) => {
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range?.[1] ? Number(range[1]) : 0;
    const end = range?.[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    res.writeHead(range ? 206 : 200, {
      'content-type': 'video/mp4',
      'content-length': end - start + 1,
      'accept-ranges': 'bytes',
      ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
    });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file, { start, end }).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/bench%20video.mp4`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kib * 1024;
}

async function direct(url: string): Promise<{ ms: number; bytes: number }> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'site-bench-direct-'));
  try {
    const began = performance.now();
    await run(YTDLP, ['--ignore-config', '--no-cache-dir', '--no-playlist', '-P', dir, '-o', 'media.%(ext)s', ...FORMAT_ARGS.mp4, '--', url], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const ms = performance.now() - began;
    return { ms, bytes: (await fsp.stat(path.join(dir, 'media.mp4'))).size };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

async function throughSite(base: string, cookie: string, url: string): Promise<{ ms: number; firstByteMs: number; bytes: number }> {
  const out = path.join(os.tmpdir(), `site-bench-saved-${process.pid}.mp4`);
  try {
    const began = performance.now();
    // node:http rather than fetch: the client should not be the slow part (a browser is not).
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(`${base}/api/ytdl/download`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' } }, resolve);
      req.on('error', reject);
      req.end(JSON.stringify({ url, format: 'mp4' }));
    });
    if (res.statusCode !== 200) throw new Error(`the site answered ${res.statusCode}`);
    const firstByteMs = performance.now() - began;
    await pipeline(res, createWriteStream(out));
    const ms = performance.now() - began;
    return { ms, firstByteMs, bytes: (await fsp.stat(out)).size };
  } finally {
    await fsp.rm(out, { force: true });
  }
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

async function main(): Promise<void> {
  const file = await makeMedia();
  const size = (await fsp.stat(file)).size;
  const media = await serveMedia(file);
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [...process.execArgv, self, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const { base, cookie } = await new Promise<{ base: string; cookie: string }>((resolve, reject) => {
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const line = buffered.split('\n')[0];
        if (buffered.includes('\n') && line) resolve(JSON.parse(line) as { base: string; cookie: string });
      });
      child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    const pid = child.pid as number;
    // Warm up (JIT, the proxy, the file cache) with one small-scale pass each.
    await direct(media.url);
    await throughSite(base, cookie, media.url);
    const baseline = rssOf(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
    const directMs: number[] = [];
    const siteMs: number[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const d = await direct(media.url);
        const s = await throughSite(base, cookie, media.url);
        if (d.bytes !== size || s.bytes !== size) throw new Error(`sizes differ: file ${size}, direct ${d.bytes}, site ${s.bytes}`);
        directMs.push(d.ms);
        siteMs.push(s.ms);
        console.log(
          `  round ${round + 1}: yt-dlp direct ${(d.ms / 1000).toFixed(2)} s, through the site ${(s.ms / 1000).toFixed(2)} s ` +
            `(server fetch ${(s.firstByteMs / 1000).toFixed(2)} s, then streaming to the caller ${((s.ms - s.firstByteMs) / 1000).toFixed(2)} s)`,
        );
      }
    } finally {
      clearInterval(sampler);
    }
    const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
    const ratio = median(siteMs) / median(directMs);
    const { stdout: version } = await run(YTDLP, ['--version']);
    console.log(`\nYT-DL bench: ${mb(size)} MB MP4 on 127.0.0.1, yt-dlp ${version.trim()}, ${ROUNDS} rounds, Node ${process.version}`);
    console.log(`  yt-dlp direct (median)          ${(median(directMs) / 1000).toFixed(2)} s  (${mb(size / (median(directMs) / 1000))} MB/s)`);
    console.log(`  through the site (median)       ${(median(siteMs) / 1000).toFixed(2)} s  (${mb(size / (median(siteMs) / 1000))} MB/s)`);
    console.log(`  ratio site / direct             ${ratio.toFixed(2)}   (goal <= 1.3)`);
    console.log(`  server RSS growth               ${mb(peak - baseline)} MB   (goal <= 64 MB; baseline ${mb(baseline)} MB, peak ${mb(peak)} MB)`);
  } finally {
    child.stdin.end();
    await media.close();
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
