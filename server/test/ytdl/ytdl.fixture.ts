import { execFile } from 'node:child_process';
import { createReadStream, promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const ENCODERS = {
  /** What plays everywhere: H.264 video, AAC audio in MP4. */
  'h264-aac': ['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-movflags', '+faststart'],
  /** What YouTube serves a browser: VP9 video, Opus audio in WebM (name the file .webm). */
  'vp9-opus': ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '200k', '-c:a', 'libopus'],
} as const;

/** A short clip made with ffmpeg (H.264 + AAC MP4 unless told), so the tests need no media in the repo. */
export async function makeClip(dir: string, seconds = 2, name = 'clip.mp4', codecs: keyof typeof ENCODERS = 'h264-aac'): Promise<string> {
  const file = path.join(dir, name);
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc=size=160x120:rate=10:duration=${seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
    ...ENCODERS[codecs], '-shortest',
    file,
  ]);
  return file;
}

export async function tempFolder(prefix: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

export type MediaServer = {
  /** http://127.0.0.1:port/<name> */
  url(name: string): string;
  /** Every path requested, in order. */
  requests: string[];
  /** How many /held/ and /broken/ answers are holding back the rest of their file now. */
  holding(): number;
  /** Lets every answer held back now go on (answers asked for later are held again). */
  release(): void;
  close(): Promise<void>;
};

/**
 * Serves files on 127.0.0.1 with Range support, like a video host's CDN:
 * - /<anything>.mp4 (or .webm) answers `file`;
 * - /slow/<anything>.mp4 answers it at a trickle (a download that stays running);
 * - /held/<anything>.mp4 answers the first three quarters at once, then holds the rest back until
 *   `release()` (the download cannot finish before the test says so);
 * - /broken/<anything>.mp4 does the same but, once released, cuts the connection instead; asked
 *   again (yt-dlp resuming with a Range), it answers 404: a download that fails half way;
 * - /redirect?to=URL answers 302 to URL.
 */
export async function serveMedia(file: string, opts: { host?: string } = {}): Promise<MediaServer> {
  const size = (await fs.stat(file)).size;
  const requests: string[] = [];
  const held = new Set<() => void>();
  const broken = new Set<string>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(url.pathname);
    if (url.pathname === '/redirect') {
      return void res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    }
    const type = url.pathname.endsWith('.mp4') ? 'video/mp4' : url.pathname.endsWith('.webm') ? 'video/webm' : null;
    if (!type) return void res.writeHead(404).end();
    const slow = url.pathname.startsWith('/slow/');
    const cut = url.pathname.startsWith('/broken/');
    const hold = cut || url.pathname.startsWith('/held/');
    if (cut && req.headers.range && broken.has(url.pathname)) return void res.writeHead(404).end();
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    let start = 0;
    let end = size - 1;
    if (range) {
      start = range[1] ? Number(range[1]) : 0;
      end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (start > end) return void res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
    }
    res.writeHead(range ? 206 : 200, {
      'content-type': type,
      'content-length': end - start + 1,
      'accept-ranges': 'bytes',
      ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
    });
    if (req.method === 'HEAD') return void res.end();
    if (hold) {
      const middle = start + Math.floor(((end - start + 1) * 3) / 4);
      createReadStream(file, { start, end: middle - 1 })
        .on('end', () => {
          const go = () => {
            held.delete(go);
            if (!cut) return void createReadStream(file, { start: middle, end }).pipe(res);
            broken.add(url.pathname);
            res.destroy();
          };
          held.add(go);
          res.once('close', () => held.delete(go));
        })
        .pipe(res, { end: false });
      return;
    }
    if (!slow) return void createReadStream(file, { start, end }).pipe(res);
    // 1 KB every 50 ms: a 40 KB clip takes about two seconds, long enough to watch and cancel.
    let at = start;
    const timer = setInterval(() => {
      if (at > end) return void (clearInterval(timer), res.end());
      const stop = Math.min(at + 1023, end);
      createReadStream(file, { start: at, end: stop }).on('data', (chunk) => res.write(chunk));
      at = stop + 1;
    }, 50);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    requests,
    holding: () => held.size,
    release: () => {
      for (const go of [...held]) go();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
