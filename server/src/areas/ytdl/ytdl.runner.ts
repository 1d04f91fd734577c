import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { YtdlFormat } from '@site/contracts';
import { z } from 'zod';

/**
 * Running yt-dlp: always an argument array (never a shell), `--ignore-config` and a HOME inside the
 * job's own temporary folder (no configuration, cache or plugins of the server account are read),
 * the member's link only after `--`, every connection through the guard proxy, and the process
 * group killed at the time limit or on cancel (ffmpeg, started by yt-dlp for merging, goes too).
 */
export type RunOptions = {
  ytdlpPath: string;
  args: string[];
  /** The job's temporary folder: working directory and HOME. */
  dir: string;
  timeoutMs: number;
  onStdoutLine?: (line: string) => void;
  signal?: AbortSignal;
};

export type RunResult = {
  code: number | null;
  /** Why the process stopped early, if it was stopped. */
  stopped: 'timeout' | 'aborted' | null;
  /** The last lines of stderr (bounded), for the error message. */
  stderr: string;
  /** spawn failed (yt-dlp not found or not executable). */
  missing: boolean;
};

const STDERR_KEEP = 16 * 1024;

export function runYtdlp(opts: RunOptions): Promise<RunResult> {
  return new Promise((resolve) => {
    let stderr = '';
    let stopped: RunResult['stopped'] = null;
    let missing = false;
    const child = spawn(opts.ytdlpPath, opts.args, {
      cwd: opts.dir,
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
        HOME: opts.dir,
        XDG_CONFIG_HOME: opts.dir,
        XDG_CACHE_HOME: opts.dir,
        TMPDIR: opts.dir,
        LANG: 'C.UTF-8',
        LC_ALL: 'C.UTF-8',
        PYTHONIOENCODING: 'utf-8',
        PYTHONDONTWRITEBYTECODE: '1',
      },
    });
    const killGroup = () => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const stop = (why: NonNullable<RunResult['stopped']>) => {
      stopped ??= why;
      killGroup();
    };
    const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
    const onAbort = () => stop('aborted');
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => opts.onStdoutLine?.(line));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'EACCES') missing = true;
      else stderr += `\n${error.message}`;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      // Anything yt-dlp left running in its group (an ffmpeg) ends with it.
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // the group is already gone
        }
      }
      resolve({ code, stopped, stderr, missing });
    });
  });
}

/** Options every run shares: the proxy, one video only, no colour codes, a socket timeout. */
function common(proxyUrl: string): string[] {
  return ['--ignore-config', '--no-cache-dir', '--no-colors', '--no-playlist', '--playlist-items', '1', '--socket-timeout', '30', '--proxy', proxyUrl];
}

export function infoArgs(url: string, proxyUrl: string): string[] {
  return [...common(proxyUrl), '--skip-download', '--print', 'title', '--', url];
}

/** Lines the download prints on stdout, parsed by `parseLine`. The file being written comes last (it may hold spaces). */
const PROGRESS =
  'download:@@P %(progress.status)s %(progress.downloaded_bytes)s %(progress.total_bytes)s %(progress.total_bytes_estimate)s %(progress.speed)s %(progress.tmpfilename)s';
/** What yt-dlp chose, before it downloads: enough to tell whether the file it writes is the file it delivers. */
const CHOSEN = 'before_dl:@@S %(.{ext,protocol,container,acodec,stretched_ratio,is_live})j';

/**
 * How yt-dlp picks among a site's formats. MP4: H.264 video and AAC audio first (then the highest
 * resolution of those), the pair iPhones and older TVs play; a container of MP4 alone is not enough
 * (YouTube's 1440p and 2160p MP4s are AV1). A site without H.264 gives its nearest codec, remuxed
 * into MP4 (never re-encoded), and the page says what the file holds.
 */
export const FORMAT_ARGS: Record<YtdlFormat, string[]> = {
  mp4: ['-f', 'bv*+ba/b', '-S', 'vcodec:h264,res,acodec:aac,ext:mp4:m4a', '--merge-output-format', 'mp4', '--remux-video', 'mp4'],
  // The audio track alone; AAC is copied into M4A, other codecs are converted by ffmpeg.
  m4a: ['-f', 'ba[ext=m4a]/ba/b', '-x', '--audio-format', 'm4a'],
};

export function downloadArgs(opts: { url: string; format: YtdlFormat; proxyUrl: string; dir: string; maxBytes: number }): string[] {
  return [
    ...common(opts.proxyUrl),
    // yt-dlp's own downloader for every protocol, so HLS and DASH go through the proxy as well.
    '--downloader',
    'native',
    '--max-filesize',
    String(opts.maxBytes),
    '--no-mtime',
    '--newline',
    '--progress',
    '--progress-template',
    PROGRESS,
    '--print',
    'before_dl:@@T %(title)s',
    '--print',
    CHOSEN,
    '--print',
    'after_move:@@F %(filepath)s',
    '--no-simulate',
    '-P',
    opts.dir,
    '-o',
    'media.%(ext)s',
    ...FORMAT_ARGS[opts.format],
    '--',
    opts.url,
  ];
}

/**
 * The fields of the chosen format that `streamsAsWritten` reads (absent when the extractor does not
 * know them). They come from the video site's data through the extractor, so their types are checked.
 */
const chosenFormat = z.object({
  ext: z.string().nullish(),
  protocol: z.string().nullish(),
  container: z.string().nullish(),
  acodec: z.string().nullish(),
  stretched_ratio: z.number().nullish(),
  is_live: z.boolean().nullish(),
});
export type ChosenFormat = z.infer<typeof chosenFormat>;

export type ParsedLine =
  | { kind: 'title'; title: string }
  | { kind: 'chosen'; format: ChosenFormat }
  | { kind: 'file'; path: string }
  | { kind: 'progress'; status: string; downloaded: number | null; total: number | null; speed: number | null; file: string | null };

const num = (s: string | undefined): number | null => {
  if (s === undefined || s === 'NA' || s === 'None') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
};

export function parseLine(line: string): ParsedLine | null {
  if (line.startsWith('@@T ')) return { kind: 'title', title: line.slice(4) };
  if (line.startsWith('@@F ')) return { kind: 'file', path: line.slice(4) };
  if (line.startsWith('@@S ')) {
    try {
      const checked = chosenFormat.safeParse(JSON.parse(line.slice(4)));
      return checked.success ? { kind: 'chosen', format: checked.data } : null;
    } catch {
      return null;
    }
  }
  if (line.startsWith('@@P ')) {
    const [status = '', downloaded, total, estimate, speed, ...file] = line.slice(4).split(' ');
    const tmpFile = file.join(' ');
    return {
      kind: 'progress',
      status,
      downloaded: num(downloaded),
      total: num(total) ?? num(estimate),
      speed: num(speed),
      file: tmpFile === '' || tmpFile === 'NA' ? null : tmpFile,
    };
  }
  return null;
}

/**
 * Whether the one file yt-dlp writes is, byte for byte, the file it delivers, so it can be sent while
 * it is written. That holds for a single format fetched over plain HTTP(S) already in the wanted
 * container, which no post-processor touches: not a merge of video and audio (protocol 'https+https'),
 * not HLS or DASH fragments (their fixups rewrite the file), not a DASH M4A (fixed up by ffmpeg), not
 * a file in another container (remuxed or its audio extracted) or with a stretched picture, not a live
 * stream. M4A only when the audio is known to be AAC: `-x` leaves exactly that alone. Everything else
 * is delivered once yt-dlp has finished.
 */
export function streamsAsWritten(format: YtdlFormat, chosen: ChosenFormat): boolean {
  if (chosen.protocol !== 'http' && chosen.protocol !== 'https') return false;
  if (chosen.ext !== format || chosen.is_live === true) return false;
  if ((chosen.stretched_ratio ?? 1) !== 1) return false;
  if (chosen.container?.endsWith('_dash')) return false;
  if (format === 'm4a') return /^(mp4a|aac)/i.test(chosen.acodec ?? '');
  return true;
}

/** The last `ERROR:` line of yt-dlp, without its prefix, for messages. */
export function lastError(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.startsWith('ERROR:'));
  const last = lines.at(-1) ?? stderr.trim().split('\n').at(-1) ?? '';
  return last.replace(/^ERROR:\s*/, '').replace(/;\s*please report this issue.*$/i, '').slice(0, 300);
}
