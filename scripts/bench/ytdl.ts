/**
 * YT-DL: a 300 MB MP4 served on 127.0.0.1, downloaded (1) by yt-dlp run directly and (2) through
 * the site (POST /api/ytdl/download: yt-dlp behind the guard proxy into a temporary folder, the
 * file sent to the caller while yt-dlp still writes it), in alternating rounds of the same run.
 * Prints the ratio of wall times (goal <= 1.3) and the growth of the server's resident memory during
 * the site downloads (goal <= 64 MB: the file streams from disk, it is never held in memory).
 * The site runs in a child process (its RSS read from /proc), the video host in another (as a real
 * host is another machine: sharing this process's event loop with the client would slow the host
 * only while the site's answer is being received). The member's browser is curl, saving the file to
 * disk: a browser receives with native code in processes of its own, on another machine; a Node
 * client here took more CPU than the server it measured (1.5 s per 300 MB) from the same 2 cores.
 * Each round prints the CPU time each process spent on the download through the site.
 * Needs ffmpeg, yt-dlp and curl.   Run: npm run bench:ytdl   (BENCH_ROUNDS=3 for more rounds; BENCH_MB to change the size)
 */
import { execFile } from 'node:child_process';
import { createReadStream, promises as fsp } from 'node:fs';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildApp } from '@site/server/app';
import { FORMAT_ARGS } from '@site/server/areas/ytdl/ytdl.runner';
import { openBenchSite, serveUntilStdinEnds, untilStdinEnds } from './bench-site.ts';
import { buildLabel, cpuOf, startBenchProcess } from './server-process.ts';
import { median } from './stats.ts';

const run = promisify(execFile);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TARGET_MB = Number(process.env.BENCH_MB ?? 300);
const YTDLP = process.env.YTDLP_PATH ?? 'yt-dlp';

/** Child process: the real app on a free port, with downloads from this machine allowed. */
async function serve(): Promise<void> {
  const site = await openBenchSite('site-bench-ytdl-', { DOWNLOAD_ALLOW_PRIVATE_HOSTS: 'true', YTDLP_PATH: YTDLP });
  const app = await buildApp(site.deps);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ base, cookie: site.cookie })}\n`);
  serveUntilStdinEnds(site, () => app.close());
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
    const { stdout } = await run('curl', [
      '--silent', '--show-error', '--output', out,
      '--write-out', '%{http_code} %{time_starttransfer}',
      '--header', `cookie: ${cookie}`, '--header', 'content-type: application/json',
      '--data-binary', JSON.stringify({ url, format: 'mp4' }),
      `${base}/api/ytdl/download`,
    ]);
    const ms = performance.now() - began;
    const [status, firstByte] = stdout.split(' ');
    if (status !== '200') throw new Error(`the site answered ${status}`);
    return { ms, firstByteMs: Number(firstByte) * 1000, bytes: (await fsp.stat(out)).size };
  } finally {
    await fsp.rm(out, { force: true });
  }
}

/** Child process: the video host, until its standard input ends. */
async function host(file: string): Promise<void> {
  const media = await serveMedia(file);
  process.stdout.write(`${JSON.stringify({ url: media.url })}\n`);
  untilStdinEnds(() => media.close());
}

/** This file again in a child process with `args`; resolves with the JSON line it prints first. */
const child = <T>(args: string[]) => startBenchProcess<T>(import.meta.url, args);

async function main(): Promise<void> {
  const file = await makeMedia();
  const size = (await fsp.stat(file)).size;
  const { process: mediaHost, info: media } = await child<{ url: string }>(['--host', file]);
  const { process: server, info } = await child<{ base: string; cookie: string }>(['--serve']);
  const { base, cookie } = info;
  try {
    const pid = server.pid as number;
    // Warm up (JIT, the proxy, the file cache) with one full pass each; the server's RSS is also
    // sampled during its first download, before anything was reused.
    const cold = rssOf(pid);
    let coldPeak = cold;
    const coldSampler = setInterval(() => (coldPeak = Math.max(coldPeak, rssOf(pid))), 50);
    await direct(media.url);
    await throughSite(base, cookie, media.url).finally(() => clearInterval(coldSampler));
    const baseline = rssOf(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
    const directMs: number[] = [];
    const siteMs: number[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const d = await direct(media.url);
        const before = [cpuOf(mediaHost.pid as number), cpuOf(pid), cpuOf('self')];
        const s = await throughSite(base, cookie, media.url);
        const [host, site, self] = [cpuOf(mediaHost.pid as number), cpuOf(pid), cpuOf('self')].map((now, i) => now.map((v, j) => v - (before[i]?.[j] ?? 0)));
        if (d.bytes !== size || s.bytes !== size) throw new Error(`sizes differ: file ${size}, direct ${d.bytes}, site ${s.bytes}`);
        directMs.push(d.ms);
        siteMs.push(s.ms);
        console.log(
          `  round ${round + 1}: yt-dlp direct ${(d.ms / 1000).toFixed(2)} s, through the site ${(s.ms / 1000).toFixed(2)} s ` +
            `(first byte after ${(s.firstByteMs / 1000).toFixed(2)} s; CPU: site ${site?.[0]} ms, its yt-dlp ${site?.[1]} ms, ` +
            `video host ${host?.[0]} ms, curl ${self?.[1]} ms)`,
        );
      }
    } finally {
      clearInterval(sampler);
    }
    const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
    const ratio = median(siteMs) / median(directMs);
    const { stdout: version } = await run(YTDLP, ['--version']);
    console.log(`\nYT-DL bench: ${mb(size)} MB MP4 on 127.0.0.1, yt-dlp ${version.trim()}, ${ROUNDS} rounds, Node ${process.version}, ${buildLabel}`);
    console.log(`  yt-dlp direct (median)          ${(median(directMs) / 1000).toFixed(2)} s  (${mb(size / (median(directMs) / 1000))} MB/s)`);
    console.log(`  through the site (median)       ${(median(siteMs) / 1000).toFixed(2)} s  (${mb(size / (median(siteMs) / 1000))} MB/s)`);
    console.log(`  ratio site / direct             ${ratio.toFixed(2)}   (goal <= 1.3)`);
    console.log(`  server RSS growth               ${mb(peak - baseline)} MB   (goal <= 64 MB; baseline ${mb(baseline)} MB, peak ${mb(peak)} MB)`);
    console.log(`  ... during the first download   ${mb(coldPeak - cold)} MB   (from ${mb(cold)} MB at start-up)`);
  } finally {
    server.stdin.end();
    mediaHost.stdin.end();
  }
}

const hostFile = process.argv[process.argv.indexOf('--host') + 1];
if (process.argv.includes('--serve')) await serve();
else if (process.argv.includes('--host') && hostFile) await host(hostFile);
else await main();
