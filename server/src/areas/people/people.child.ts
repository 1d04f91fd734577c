import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The indexing child: one long-lived Node process that loads @vladmandic/human's models once (from
 * node_modules, on the tfjs WebAssembly backend, its .wasm files from node_modules too) and then reads
 * pictures one at a time: a line of JSON in on stdin (a file path), a line of JSON out on stdout (the
 * faces with their embeddings, the things the detector saw). It runs under a hard memory limit
 * (RLIMIT_DATA via prlimit, like the decoding child) at the lowest CPU priority, and nothing in it
 * can reach the network: fetch is replaced by a reader of file: URLs under the models folder.
 */

/**
 * The child's writable memory (heap and the WebAssembly memory the models run in). Measured: under
 * 200 MiB it cannot load the models, at 250 MiB it works (peak resident 273 MB); 400 MiB leaves a
 * margin and keeps its resident size (this plus ~60 MB of shared code) under 500 MB.
 */
export const INDEX_CHILD_MEMORY_BYTES = 400 * 1024 * 1024;
/** One picture that takes longer than this (a loaded machine is ~2 s) kills the child: the picture is retried, then failed. */
export const INDEX_PICTURE_TIMEOUT_MS = 60_000;
/** Loading the models once (measured 0.2-1.5 s) may take this long. */
const LOAD_TIMEOUT_MS = 60_000;
/** The child exits after this long without work, giving its memory back; the next picture starts a new one. */
export const INDEX_CHILD_IDLE_MS = 60_000;
/** The longer side the picture is read at (its faces are then ~100-300 px, what the face models take). */
export const INDEX_PX = 1024;

/** Face detector and object detector thresholds (the detector's own score, 0..1). */
export const FACE_MIN_SCORE = 0.5;
export const TAG_MIN_CONFIDENCE = 0.35;

export type FoundFace = { box: [number, number, number, number]; score: number; embedding: number[] };
export type FoundThing = { label: string; score: number };
export type IndexAnswer = { ok: true; faces: FoundFace[]; things: FoundThing[]; ms: number; peakKb: number } | { ok: false; error: string };

const CHILD = `
const job = JSON.parse(process.argv[1]);
const { readFile } = await import('node:fs/promises');
const { readFileSync } = await import('node:fs');
const { fileURLToPath, pathToFileURL } = await import('node:url');
const { createRequire } = await import('node:module');
const path = await import('node:path');
const require = createRequire(job.human);
// Nothing is downloaded: the models are files in node_modules, read through this fetch.
const modelsDir = path.resolve(job.models) + path.sep;
globalThis.fetch = async (url) => {
  const href = String(url && url.url ? url.url : url);
  if (!href.startsWith('file:')) throw new Error('the indexing child makes no network requests: ' + href);
  const file = path.resolve(fileURLToPath(href));
  if (!file.startsWith(modelsDir)) throw new Error('not a model file: ' + file);
  return new Response(await readFile(file), { status: 200 });
};
const sharp = require(job.sharp);
sharp.concurrency(1);
sharp.cache(false);
const H = require(job.human);
const human = new H.Human({
  backend: 'wasm', wasmPath: job.wasm, modelBasePath: pathToFileURL(modelsDir).href, debug: false, async: true, warmup: 'none', cacheSensitivity: 0,
  face: {
    enabled: true,
    detector: { rotation: false, maxDetected: 30, minConfidence: job.faceMinScore, return: false },
    mesh: { enabled: true }, iris: { enabled: false }, description: { enabled: true },
    emotion: { enabled: false }, antispoof: { enabled: false }, liveness: { enabled: false }, attention: { enabled: false },
  },
  body: { enabled: false }, hand: { enabled: false }, gesture: { enabled: false }, segmentation: { enabled: false },
  object: { enabled: true, minConfidence: job.tagMinConfidence, maxDetected: 20 },
  filter: { enabled: false },
});
await human.load();
const peakKb = () => Number(/VmHWM:\\s*(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
const say = (answer) => process.stdout.write(JSON.stringify(answer) + '\\n');
say({ ready: true, peakKb: peakKb() });
const { createInterface } = await import('node:readline');
// The server holds stdin: when it goes (kill -9 included), the lines end and so does this child.
for await (const line of createInterface({ input: process.stdin })) {
  const started = performance.now();
  try {
    const { source } = JSON.parse(line);
    const { data, info } = await sharp(source, { failOn: 'none', limitInputPixels: 50_000_000 })
      .rotate().resize(job.px, job.px, { fit: 'inside', withoutEnlargement: true }).removeAlpha().raw()
      .toBuffer({ resolveWithObject: true });
    const input = human.tf.tensor4d(new Int32Array(data), [1, info.height, info.width, 3], 'int32');
    const result = await human.detect(input);
    human.tf.dispose(input);
    const faces = result.face
      .filter((f) => f.embedding && f.embedding.length > 0 && (f.boxScore ?? f.score) >= job.faceMinScore)
      .map((f) => ({
        box: [f.box[0] / info.width, f.box[1] / info.height, f.box[2] / info.width, f.box[3] / info.height],
        score: f.boxScore ?? f.score,
        embedding: Array.from(f.embedding),
      }));
    const things = result.object.map((o) => ({ label: o.label, score: o.score }));
    say({ ok: true, faces, things, ms: Math.round(performance.now() - started), peakKb: peakKb() });
  } catch (error) {
    say({ ok: false, error: String(error && error.message || error).slice(0, 300) });
  }
}
process.exit(0);
`;

const resolveModule = createRequire(import.meta.url).resolve;

/** Where the packages are: human's dist (its package.json exports name no wasm build), its models, tfjs' wasm files. */
function childJob() {
  const humanDist = path.dirname(resolveModule('@vladmandic/human'));
  return {
    human: path.join(humanDist, 'human.node-wasm.js'),
    models: path.join(humanDist, '..', 'models'),
    wasm: path.dirname(resolveModule('@tensorflow/tfjs-backend-wasm')) + path.sep,
    sharp: resolveModule('sharp'),
    px: INDEX_PX,
    faceMinScore: FACE_MIN_SCORE,
    tagMinConfidence: TAG_MIN_CONFIDENCE,
  };
}

function findPrlimit(): string {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/bin', '/bin'];
  return dirs.map((dir) => path.join(dir, 'prlimit')).find((file) => fs.existsSync(file)) ?? 'prlimit';
}

/** What this process's indexing children did: how many pictures, and the largest peak resident memory one reported. */
export const indexChildStats = { starts: 0, pictures: 0, maxPeakBytes: 0 };

/**
 * One indexing child, started on first use and kept while pictures come; `index` sends it one
 * picture at a time (callers wait their turn), `close` ends it.
 */
export class IndexChild {
  private child: ChildProcessWithoutNullStreams | null = null;
  private lines: AsyncIterator<string> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly idleMs = INDEX_CHILD_IDLE_MS) {}

  /** The pid of the running child (tests kill it), or null. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  index(source: string): Promise<IndexAnswer> {
    const result = this.queue.then(() => this.indexNow(source));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async start(): Promise<void> {
    const limits = [`--data=${INDEX_CHILD_MEMORY_BYTES}`, `--stack=${2 * 1024 * 1024}`, '--core=0'];
    const env = { ...process.env, MALLOC_ARENA_MAX: '2', UV_THREADPOOL_SIZE: '1' };
    const child = spawn(findPrlimit(), [...limits, '--', process.execPath, '--v8-pool-size=1', '--input-type=module', '-e', CHILD, JSON.stringify(childJob())], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env,
    });
    // Lowest CPU priority: the gallery's requests come first.
    try {
      if (child.pid) os.setPriority(child.pid, 19);
    } catch {
      // Not allowed here: it runs at the server's priority.
    }
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    child.on('exit', () => {
      if (this.child === child) {
        this.child = null;
        this.lines = null;
      }
    });
    child.on('error', () => undefined);
    // A child that died (its limit, a kill) makes a write fail with EPIPE: the missing answer says so.
    child.stdin.on('error', () => undefined);
    this.child = child;
    this.lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    indexChildStats.starts++;
    const ready = await this.next(LOAD_TIMEOUT_MS);
    if (ready === null) throw new Error(`the indexing child did not start: ${stderr.trim().slice(0, 500)}`);
  }

  /** The child's next line of answer, or null when it ended or took too long (then it is killed). */
  private async next(timeoutMs: number): Promise<string | null> {
    const lines = this.lines;
    const child = this.child;
    if (!lines || !child) return null;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(null);
      }, timeoutMs);
    });
    try {
      const read = lines.next().then((r) => (r.done ? null : r.value));
      return await Promise.race([read, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async indexNow(source: string): Promise<IndexAnswer> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (!this.child) {
      try {
        await this.start();
      } catch (error) {
        await this.close();
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    }
    const child = this.child;
    if (!child) return { ok: false, error: 'the indexing child ended' };
    child.stdin.write(JSON.stringify({ source }) + '\n');
    const line = await this.next(INDEX_PICTURE_TIMEOUT_MS);
    this.idleTimer = setTimeout(() => void this.close(), this.idleMs);
    this.idleTimer.unref();
    if (line === null) {
      // Dead or stuck: the next picture gets a new child, whenever this one's exit is noticed.
      if (this.child === child) {
        this.child = null;
        this.lines = null;
      }
      child.kill('SIGKILL');
      return { ok: false, error: 'the indexing child ended (memory or time limit)' };
    }
    const answer = JSON.parse(line) as IndexAnswer;
    if (answer.ok) {
      indexChildStats.pictures++;
      indexChildStats.maxPeakBytes = Math.max(indexChildStats.maxPeakBytes, answer.peakKb * 1024);
    }
    return answer;
  }

  /** Ends the child (its stdin closes: it finishes the line it is on and exits). */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const child = this.child;
    if (!child) return;
    this.child = null;
    this.lines = null;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}
