import { randomUUID } from 'node:crypto';
import { promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import { downloadFileName, ytdlMessages, ytdlpAge, type YtdlCodecs, type YtdlFormat, type YtdlProgress, type YtdlState, type YtdlStatus, type YtdlVersion } from '@site/contracts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { recordEvent } from '../notifications/notifications.events.ts';
import { AppError } from '../../errors.ts';
import { probeCodecs } from './ytdl.codecs.ts';
import { GrowingFile } from './ytdl.follow.ts';
import { checkVideoUrl, parseVideoUrl, type NetPolicy } from './ytdl.guard.ts';
import { startGuardProxy, type GuardProxy, type Tunnel } from './ytdl.proxy.ts';
import { downloadArgs, infoArgs, lastError, parseLine, runYtdlp, streamsAsWritten, type RunResult } from './ytdl.runner.ts';

/**
 * Downloads as a small job resource: `start` checks the link and the limits and returns a job id at
 * once; yt-dlp runs in the background into a fresh folder under DATA_DIR; the page polls
 * `progress`; the file is fetched once from GET /api/ytdl/file/:job, then deleted; `cancel` kills
 * the process group and deletes the folder (a fetch still running is cut off). Jobs live in this process
 * (they are a running program and a file on this machine's disk), so one member's job is served by
 * the instance that runs it.
 *
 * When yt-dlp writes the delivered file itself as one growing file (a single MP4 or AAC M4A over
 * plain HTTP, see `streamsAsWritten`), the file can be fetched as soon as its first bytes are on disk
 * and the answer follows it while it is written (`GrowingFile`), so the two transfers overlap instead
 * of adding up. A merge of video and audio, HLS/DASH fragments, or audio extracted from a video need
 * ffmpeg after the download, so those are fetched once the job is `ready`, as a finished file.
 */
type Job = {
  id: string;
  userId: number;
  /** When the member's page last asked for its progress: a download finished long after it is news (ytdl.done). */
  seenAt: number;
  url: string;
  format: YtdlFormat;
  state: YtdlState;
  title: string | null;
  /** Bytes of the parts (video, then audio) already finished, and the current part's. */
  doneBytes: number;
  doneTotal: number;
  partBytes: number;
  partTotal: number | null;
  speed: number | null;
  file: string | null;
  /** What the finished file holds (ffprobe), once yt-dlp is done. */
  codecs: YtdlCodecs | null;
  error: AppError | null;
  dir: string | null;
  abort: AbortController;
  done: Promise<void>;
  taken: boolean;
  expiry?: NodeJS.Timeout;
  /** What yt-dlp chose is delivered as it is written (from its `@@S` line). */
  streamable: boolean;
  /** The file yt-dlp is writing, followed once its first bytes are there (streamable jobs only). */
  growing: GrowingFile | null;
  /** Opening `growing`: awaited before the finished download is judged. */
  opening: Promise<void> | null;
  /** Resolves when `growing` can be fetched. */
  followed: Promise<void>;
  markFollowed: () => void;
};

export type DownloadLimits = Config['download'];

/** How long a finished file waits to be fetched, and how long a finished job answers `progress`. */
const READY_FOR_MS = 10 * 60_000;
/** The page asks for progress every second or so: this long without a question, the member is away. */
const AWAY_MS = 15_000;
const REMEMBERED_FOR_MS = 10 * 60_000;
const INFO_TIMEOUT_MS = 60_000;
const INFO_MAX_BYTES = 32 * 1024 * 1024;
const VERSION_CACHE_MS = 60_000;

const ACTIVE: ReadonlySet<YtdlState> = new Set(['starting', 'downloading', 'processing', 'ready']);

export class YtdlService {
  private readonly jobs = new Map<string, Job>();
  /** The one active job of each member (starting, downloading, processing or ready): the limits. */
  private readonly running = new Map<number, Job>();
  private readonly infos = new Map<number, AbortController>();
  private proxy: Promise<GuardProxy> | undefined;
  private versionCache: { at: number; value: Promise<string | null> } | undefined;
  /** Jobs whose end is still being cleaned up (their slot is already free); `stop` waits for them. */
  private readonly finishing = new Set<Promise<void>>();
  private swept = false;
  private stopped = false;

  private readonly policy: NetPolicy;
  /** Told when a download is ready while its member's page has not asked for it lately (notifications). */
  finishedAway: ((userId: number, title: string) => void) | undefined;
  /** How long without a progress call counts as away from the page (tests shorten it). */
  awayMs = AWAY_MS;

  constructor(
    private readonly limits: DownloadLimits,
    private readonly tempRoot: string,
    testPolicy: Omit<NetPolicy, 'allowPrivate'> = {},
    /** Today, for the age of yt-dlp (tests pass a fixed day). */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.policy = { ...testPolicy, allowPrivate: limits.allowPrivateHosts };
  }

  /**
   * The yt-dlp in use (null when it is not installed) and how old it is today. The version is read
   * once a minute at most (a yt-dlp installed or updated meanwhile is seen without a restart).
   */
  async version(): Promise<YtdlVersion> {
    const at = Date.now();
    if (!this.versionCache || at - this.versionCache.at > VERSION_CACHE_MS) {
      this.versionCache = { at, value: this.askVersion() };
    }
    const version = await this.versionCache.value;
    const age = version === null ? null : ytdlpAge(version, this.now());
    return { version, released: age?.released ?? null, ageDays: age?.ageDays ?? null, outdated: age?.outdated ?? false };
  }

  /** The owner's view: the version and the program the server runs (YTDLP_PATH). */
  async status(): Promise<YtdlStatus> {
    return { ...(await this.version()), ytdlpPath: this.limits.ytdlpPath };
  }

  private async askVersion(): Promise<string | null> {
    return this.inTempDir(async (dir) => {
      let out = '';
      const result = await runYtdlp({
        ytdlpPath: this.limits.ytdlpPath,
        args: ['--ignore-config', '--version'],
        dir,
        timeoutMs: 15_000,
        onStdoutLine: (line) => (out ||= line.trim()),
      });
      return result.missing || result.code !== 0 ? null : out.slice(0, 64) || null;
    });
  }

  /** The title of the video at `url`. A member's newer question replaces an older one still running. */
  async info(userId: number, url: string): Promise<{ title: string }> {
    await checkVideoUrl(url, this.policy);
    this.infos.get(userId)?.abort();
    const abort = new AbortController();
    this.infos.set(userId, abort);
    const proxy = await this.startProxy();
    const session = proxy.open((total) => total <= INFO_MAX_BYTES);
    try {
      return await this.inTempDir(async (dir) => {
        let title: string | null = null;
        const result = await runYtdlp({
          ytdlpPath: this.limits.ytdlpPath,
          args: infoArgs(url, session.url),
          dir,
          timeoutMs: Math.min(INFO_TIMEOUT_MS, this.limits.timeoutMs),
          signal: abort.signal,
          onStdoutLine: (line) => (title ??= line),
        });
        if (result.stopped === 'aborted') throw new AppError('CONFLICT', ytdlMessages.replaced);
        if (result.stopped === 'timeout') throw new AppError('BAD_REQUEST', ytdlMessages.unreachable);
        const failure = this.failureOf(result, session.tunnel, false);
        if (failure) throw failure;
        if (title === null) throw new AppError('BAD_REQUEST', ytdlMessages.unsupported);
        return { title };
      });
    } finally {
      session.close();
      if (this.infos.get(userId) === abort) this.infos.delete(userId);
    }
  }

  /** Checks the link and the limits, then starts the download in the background. */
  async start(userId: number, input: { url: string; format: YtdlFormat }): Promise<{ job: string }> {
    const job = await this.begin(userId, input);
    return { job: job.id };
  }

  /**
   * Starts a download and waits until its file can be fetched (the documented /api/ytdl/download):
   * its first bytes when it is sent as it is written, else the finished file. Refusals and failures
   * before that are thrown, so they still become a JSON error.
   */
  async startAndWait(userId: number, input: { url: string; format: YtdlFormat }, signal: AbortSignal): Promise<string> {
    const job = await this.begin(userId, input);
    const onAbort = () => void this.cancel(userId, job.id);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race([job.done, job.followed]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    if (job.state !== 'ready' && !this.followable(job)) throw job.error ?? new AppError('BAD_REQUEST', ytdlMessages.noJob);
    return job.id;
  }

  /**
   * The growing file of a job still running, if it can be fetched now. (`growing` is set only while
   * the job runs and is not ready: `run` and `finish` clear it in the step that changes the state,
   * unless it was taken.)
   */
  private followable(job: Job): GrowingFile | null {
    return job.taken ? null : job.growing;
  }

  private async begin(userId: number, input: { url: string; format: YtdlFormat }): Promise<Job> {
    if (this.stopped) throw new AppError('SERVICE_UNAVAILABLE', ytdlMessages.busyServer(this.running.size));
    parseVideoUrl(input.url);
    // The slots are taken before the first await, so two requests at once cannot both get the last one.
    if (this.running.has(userId)) throw new AppError('TOO_MANY_REQUESTS', ytdlMessages.busyMember);
    if (this.running.size >= this.limits.concurrency) throw new AppError('TOO_MANY_REQUESTS', ytdlMessages.busyServer(this.running.size));
    let markFollowed = () => {};
    const followed = new Promise<void>((resolve) => (markFollowed = resolve));
    const job: Job = {
      id: randomUUID(),
      userId,
      seenAt: Date.now(),
      url: input.url,
      format: input.format,
      state: 'starting',
      title: null,
      doneBytes: 0,
      doneTotal: 0,
      partBytes: 0,
      partTotal: null,
      speed: null,
      file: null,
      codecs: null,
      error: null,
      dir: null,
      abort: new AbortController(),
      done: Promise.resolve(),
      taken: false,
      streamable: false,
      growing: null,
      opening: null,
      followed,
      markFollowed,
    };
    this.running.set(userId, job);
    this.jobs.set(job.id, job);
    try {
      await checkVideoUrl(input.url, this.policy);
      job.dir = await this.makeTempDir();
    } catch (error) {
      this.running.delete(userId);
      this.jobs.delete(job.id);
      throw error;
    }
    job.done = this.run(job).catch((error: unknown) =>
      this.fail(job, error instanceof AppError ? error : new AppError('BAD_REQUEST', ytdlMessages.failed('unexpected error'))),
    );
    return job;
  }

  private async run(job: Job): Promise<void> {
    const dir = job.dir as string;
    const proxy = await this.startProxy();
    let tooLarge = false;
    const session = proxy.open((total) => {
      if (total > this.limits.maxBytes) {
        tooLarge = true;
        job.abort.abort();
        return false;
      }
      return true;
    });
    let sawMaxFilesize = false;
    let result: RunResult;
    try {
      result = await runYtdlp({
        ytdlpPath: this.limits.ytdlpPath,
        args: downloadArgs({ url: job.url, format: job.format, proxyUrl: session.url, dir, maxBytes: this.limits.maxBytes }),
        dir,
        timeoutMs: this.limits.timeoutMs,
        signal: job.abort.signal,
        onStdoutLine: (line) => {
          if (line.includes('max-filesize')) sawMaxFilesize = true;
          this.onLine(job, line);
        },
      });
    } finally {
      session.close();
    }
    if (job.opening) await job.opening;
    if (job.state === 'cancelled') return;
    if (tooLarge || sawMaxFilesize) return this.fail(job, new AppError('PAYLOAD_TOO_LARGE', ytdlMessages.tooLarge(this.megabytes())));
    if (result.stopped === 'timeout') return this.fail(job, new AppError('BAD_REQUEST', ytdlMessages.tooLong(this.limits.timeoutMs / 60_000)));
    const failure = this.failureOf(result, session.tunnel, true);
    if (failure) return this.fail(job, failure);
    const file = path.join(dir, `media.${job.format}`);
    const stats = await fs.stat(file).catch(() => null);
    if (!stats) return this.fail(job, new AppError('BAD_REQUEST', ytdlMessages.failed('no file was made')));
    const size = stats.size;
    if (size > this.limits.maxBytes) return this.fail(job, new AppError('PAYLOAD_TOO_LARGE', ytdlMessages.tooLarge(this.megabytes())));
    // A post-processor made another file after all: what was sent is not what yt-dlp delivered. (A
    // growing file nobody fetched is simply dropped below.)
    if (job.growing && job.taken && !(await sameFile(job.growing, stats))) {
      return this.fail(job, new AppError('BAD_REQUEST', ytdlMessages.failed('the file changed after it was written')));
    }
    // Said on the page as it is, also when the site offered nothing better than H.264 and AAC.
    job.codecs = await probeCodecs(file);
    if (!ACTIVE.has(job.state)) return;
    job.file = file;
    job.state = 'ready';
    job.speed = null;
    if (Date.now() - job.seenAt > this.awayMs) this.finishedAway?.(job.userId, job.title ?? 'Your download');
    if (job.growing && job.taken) {
      // The answer ends with the file's last byte; its end finishes the job (`release`).
      job.growing.complete(size);
      return;
    }
    await this.dropGrowing(job);
    job.expiry = setTimeout(() => void this.finish(job, 'failed', new AppError('NOT_FOUND', ytdlMessages.noJob)), READY_FOR_MS);
    job.expiry.unref();
  }

  /**
   * Follows the file yt-dlp writes once its first bytes are there, if what it chose is delivered as
   * written; on later lines, tells the reader there is more.
   */
  private follow(job: Job, file: string) {
    if (job.growing) {
      if (job.growing.path === file) return job.growing.grew();
      // A second file: not the one download `streamsAsWritten` judged.
      job.streamable = false;
      if (job.taken) job.growing.fail(new Error('yt-dlp wrote a second file'));
      else void this.dropGrowing(job);
      return;
    }
    if (!job.streamable || job.opening || path.dirname(file) !== job.dir) return;
    job.opening = GrowingFile.open(file).then(
      (growing) => {
        if (!job.streamable || !ACTIVE.has(job.state) || job.state === 'ready') return growing.close();
        job.growing = growing;
        job.markFollowed();
      },
      // Already renamed (the whole file came at once): it is fetched when the job is ready.
      () => undefined,
    );
  }

  private async dropGrowing(job: Job) {
    const growing = job.growing;
    job.growing = null;
    await growing?.close();
  }

  private onLine(job: Job, line: string) {
    const parsed = parseLine(line);
    if (!parsed || job.state === 'cancelled') return;
    if (parsed.kind === 'title') job.title ??= parsed.title;
    if (parsed.kind === 'chosen') job.streamable = streamsAsWritten(job.format, parsed.format);
    if (parsed.kind !== 'progress') return;
    if (parsed.status === 'downloading') {
      job.state = 'downloading';
      job.partBytes = parsed.downloaded ?? job.partBytes;
      job.partTotal = parsed.total;
      // yt-dlp prints NA for a speed it cannot tell at that instant (its first lines): the last one stands.
      job.speed = parsed.speed ?? job.speed;
      if (parsed.file) this.follow(job, parsed.file);
    } else if (parsed.status === 'finished') {
      const bytes = parsed.downloaded ?? job.partBytes;
      job.doneBytes += bytes;
      job.doneTotal += parsed.total ?? bytes;
      job.partBytes = 0;
      job.partTotal = 0;
      job.state = 'processing';
      job.speed = null;
    }
  }

  /** What went wrong in a finished run, as a message a member can act on; null when it went well. */
  private failureOf(result: RunResult, tunnel: Tunnel, download: boolean): AppError | null {
    if (result.missing) return new AppError('SERVICE_UNAVAILABLE', ytdlMessages.missing);
    if (tunnel.refusal) return tunnel.refusal;
    if (result.code === 0) return null;
    const stderr = result.stderr;
    if (/Unsupported URL/i.test(stderr)) return new AppError('BAD_REQUEST', ytdlMessages.unsupported);
    if (/private video|video unavailable|has been removed|no longer available|members-only|sign in to confirm|is not available|account .* terminated/i.test(stderr)) {
      return new AppError('BAD_REQUEST', ytdlMessages.unavailable);
    }
    if (/Temporary failure in name resolution|Network is unreachable|No address associated with hostname/i.test(stderr)) {
      return new AppError('SERVICE_UNAVAILABLE', ytdlMessages.noInternet);
    }
    if (/HTTP Error [45]\d\d|Unable to download|urlopen error|Connection refused|timed out|Name or service not known|Tunnel connection failed|Connection reset/i.test(stderr)) {
      return new AppError('BAD_REQUEST', ytdlMessages.unreachable);
    }
    if (!download && result.code === null) return new AppError('BAD_REQUEST', ytdlMessages.unreachable);
    return new AppError('BAD_REQUEST', ytdlMessages.failed(lastError(stderr) || `exit code ${String(result.code)}`));
  }

  private megabytes() {
    return Math.round(this.limits.maxBytes / (1024 * 1024));
  }

  private fail(job: Job, error: AppError): Promise<void> {
    return this.finish(job, 'failed', error);
  }

  /**
   * Ends a job: the member's slot is free in the same step as the job's state changes (a page that
   * sees 'failed' may start again at once), then the process is gone or going and the folder deleted.
   */
  private finish(job: Job, state: 'sent' | 'failed' | 'cancelled', error: AppError | null = null): Promise<void> {
    if (!ACTIVE.has(job.state)) return Promise.resolve();
    job.state = state;
    job.error = error;
    job.speed = null;
    if (this.running.get(job.userId) === job) this.running.delete(job.userId);
    const cleanup = this.cleanUp(job, state, error);
    this.finishing.add(cleanup);
    void cleanup.finally(() => this.finishing.delete(cleanup));
    return cleanup;
  }

  private async cleanUp(job: Job, state: 'sent' | 'failed' | 'cancelled', error: AppError | null): Promise<void> {
    clearTimeout(job.expiry);
    job.abort.abort();
    // A reader of the growing file stops with an error: its answer is cut off, not ended as if complete.
    job.growing?.fail(error ?? new Error(`the download was ${state}`));
    await this.dropGrowing(job);
    // The process may still be exiting; the folder goes once it has.
    if (state === 'cancelled') await job.done;
    await this.removeDir(job.dir);
    job.file = null;
    setTimeout(() => this.jobs.delete(job.id), REMEMBERED_FOR_MS).unref();
  }

  private jobOf(userId: number, id: string): Job {
    const job = this.jobs.get(id);
    // Another member's job is answered exactly like a job that does not exist.
    if (!job || job.userId !== userId) throw new AppError('NOT_FOUND', ytdlMessages.noJob);
    return job;
  }

  progress(userId: number, id: string): YtdlProgress {
    const job = this.jobOf(userId, id);
    job.seenAt = Date.now();
    const downloaded = job.doneBytes + job.partBytes;
    const total = job.partTotal === null ? null : job.doneTotal + job.partTotal;
    const percent = job.state === 'ready' || job.state === 'sent' ? 100 : total ? Math.min(100, (downloaded / total) * 100) : null;
    return {
      job: job.id,
      state: job.state,
      title: job.title,
      format: job.format,
      percent: percent === null ? null : Math.round(percent * 10) / 10,
      downloadedBytes: downloaded,
      totalBytes: total || null,
      speed: job.speed === null ? null : Math.round(job.speed),
      streaming: this.followable(job) !== null,
      fileName: job.title === null ? null : downloadFileName(job.title, job.format),
      codecs: job.codecs,
      error: job.error?.message ?? null,
    };
  }

  /** Stops a download, also while its growing file is being fetched; not once a finished file is being sent. */
  async cancel(userId: number, id: string): Promise<{ cancelled: boolean }> {
    const job = this.jobOf(userId, id);
    if (!ACTIVE.has(job.state) || (job.taken && job.state === 'ready')) return { cancelled: false };
    await this.finish(job, 'cancelled');
    return { cancelled: true };
  }

  /**
   * The file, once: the growing file while yt-dlp still writes it (no size yet), else the finished
   * file from disk, read the same way to the end it already has. The caller sends `source` (its
   * `pump`) and calls `release` when the answer is over; `complete` says whether all of it went out
   * (else the job counts as cancelled).
   */
  async takeFile(
    userId: number,
    id: string,
  ): Promise<{ source: GrowingFile; size: number | null; fileName: string; title: string; format: YtdlFormat; release(complete: boolean): Promise<void> }> {
    const job = this.jobOf(userId, id);
    const growing = this.followable(job);
    if (!growing && (job.state !== 'ready' || job.taken || !job.file)) {
      throw new AppError(ACTIVE.has(job.state) && !job.taken ? 'CONFLICT' : 'NOT_FOUND', ACTIVE.has(job.state) && !job.taken ? ytdlMessages.notReady : ytdlMessages.noJob);
    }
    job.taken = true;
    clearTimeout(job.expiry);
    const title = job.title ?? 'video';
    const taken = {
      title,
      format: job.format,
      fileName: downloadFileName(title, job.format),
      release: (complete: boolean) => this.finish(job, complete ? 'sent' : 'cancelled'),
    };
    if (growing) return { ...taken, source: growing, size: null };
    let finished: GrowingFile | null = null;
    try {
      finished = await GrowingFile.open(job.file as string);
      const { size } = await finished.stat();
      finished.complete(size);
      return { ...taken, source: finished, size };
    } catch (error) {
      await finished?.close();
      await taken.release(false);
      throw error;
    }
  }

  /** The folder of a job, for tests: null once it is deleted. */
  tempDirOf(id: string): string | null {
    return this.jobs.get(id)?.dir ?? null;
  }

  private startProxy(): Promise<GuardProxy> {
    this.proxy ??= startGuardProxy(this.policy);
    return this.proxy;
  }

  private async makeTempDir(): Promise<string> {
    await fs.mkdir(this.tempRoot, { recursive: true });
    if (!this.swept) {
      this.swept = true;
      await this.sweepStale();
    }
    return fs.mkdtemp(path.join(this.tempRoot, 'job-'));
  }

  private async inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
    await fs.mkdir(this.tempRoot, { recursive: true });
    const dir = await fs.mkdtemp(path.join(this.tempRoot, 'run-'));
    try {
      return await work(dir);
    } finally {
      await this.removeDir(dir);
    }
  }

  private async removeDir(dir: string | null) {
    if (dir) await fs.rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }

  /**
   * Folders left by a server that died mid-download. Only ones older than the time limit go: another
   * server on the same DATA_DIR may be downloading into the younger ones.
   */
  private async sweepStale() {
    const cutoff = Date.now() - this.limits.timeoutMs - READY_FOR_MS - 60_000;
    for (const name of await fs.readdir(this.tempRoot).catch(() => [] as string[])) {
      const dir = path.join(this.tempRoot, name);
      const stat = await fs.stat(dir).catch(() => null);
      if (stat && stat.mtimeMs < cutoff) await this.removeDir(dir);
    }
  }

  /** Server shutdown: every download stopped, every folder deleted, the proxy closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const abort of this.infos.values()) abort.abort();
    await Promise.all([...this.running.values()].map((job) => this.finish(job, 'cancelled')));
    await Promise.all([...this.finishing]);
    if (this.proxy) await (await this.proxy).close();
  }
}

/** Whether the finished file (its `finished` stats) is the very file being followed (same device and inode), not a copy made from it. */
async function sameFile(growing: GrowingFile, finished: Stats): Promise<boolean> {
  try {
    const followed = await growing.stat();
    return followed.dev === finished.dev && followed.ino === finished.ino;
  } catch {
    return false;
  }
}

/** Where downloads are made: one fresh folder per run under DATA_DIR/tmp/ytdl. */
export const ytdlTempRoot = (dataDir: string) => path.join(dataDir, 'tmp', 'ytdl');

const services = new WeakMap<object, YtdlService>();

/** The service of one app (tests build several apps in one process, each with its own limits). */
export function ytdlService(deps: { config: Config; db?: Database }): YtdlService {
  let service = services.get(deps);
  if (!service) {
    service = new YtdlService(deps.config.download, ytdlTempRoot(deps.config.dataDir));
    const db = deps.db;
    if (db) {
      service.finishedAway = (userId, title) =>
        void recordEvent(db, { kind: 'ytdl.done', userId, title: 'Your download is ready', body: title, url: '/personal/youtube' }).catch(() => undefined);
    }
    services.set(deps, service);
  }
  return service;
}

export async function stopYtdlService(deps: { config: Config }): Promise<void> {
  await services.get(deps)?.stop();
}
