import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Every untrusted picture is decoded in a short-lived child process, never in the server: the child
 * reads the file's header first (sharp's metadata: the declared size and, for HEIF, the real codec,
 * whatever the file's name or brand says), refuses a picture over its codec's pixel budget without
 * decoding it, and otherwise makes the derived WebPs. The child runs under a hard memory limit
 * (RLIMIT_DATA via prlimit: the kernel refuses its allocations past the limit, so a picture the
 * budgets misjudge fails there, not in the server) and a time limit (SIGKILL).
 */

/** The child's private writable memory (heap, malloc, thread stacks, WebAssembly): it starts with ~35 MB of it, and its resident size stays within this plus ~40 MB of shared code. */
export const CHILD_MEMORY_BYTES = 330 * 1024 * 1024;
/** A child that has not finished by then is killed: no preview. */
export const CHILD_TIMEOUT_MS = 90_000;

/**
 * The time one picture's preview may take, per format (the whole job: every child it runs, each
 * killed at what is left). A photograph of the largest budget decodes in seconds, so most formats
 * keep CHILD_TIMEOUT_MS as a margin for a loaded machine; an SVG is a drawing program, and a few
 * kilobytes of stacked filters can hold the decoder for a minute (measured: 52 s for 2.7 KB), while
 * a family's SVG (a logo, a drawing, a chart) draws in well under a second: it gets seconds. An
 * animated GIF's first frame, likewise, never needs a minute. Tests shorten these (a slow file's
 * budget is then spent sooner); the server never changes them.
 */
export const JOB_TIME_BUDGETS_MS: Record<string, number> = { svg: 8_000, gif: 30_000, default: CHILD_TIMEOUT_MS };

export function timeBudgetOf(fileType: string): number {
  return JOB_TIME_BUDGETS_MS[fileType] ?? JOB_TIME_BUDGETS_MS.default ?? CHILD_TIMEOUT_MS;
}

/**
 * The memory limit of the system's HEIF decoder (heif-dec / heif-convert, see heifDecoder), from its
 * measured need: RLIMIT_DATA of 140-150 MiB for a 24-megapixel HEIC and 285-290 MiB for a
 * 48-megapixel one (about 6 bytes a pixel; its peak resident memory 154 and 296 MB), so about
 * 300 MiB at the 50-megapixel budget, and a fifth more as margin.
 */
export const HEIF_TOOL_MEMORY_BYTES = 360 * 1024 * 1024;

/**
 * Pixels per codec that decode within CHILD_MEMORY_BYTES, measured as the child's peak resident
 * memory on noisy images (docs/pictures.md has the figures). JPEG is shrunk while it is read, and
 * PNG, TIFF and WebP stream into the shrinking pipeline, so they cost time rather than memory. GIF is
 * decoded whole (about 6 bytes a pixel); AV1 (AVIF, whatever the file is named) about 18 and HEVC
 * (HEIC, in WebAssembly) about 14 bytes a pixel on top of the child's own 75-105 MB, so theirs are
 * what fits: without the system's HEIF decoder a 12-megapixel iPhone photo is previewed, a
 * 24-megapixel one is not. With it (heic-system) HEVC costs about 6 bytes a pixel in a process of
 * its own, and a 48-megapixel iPhone photo is previewed.
 */
export const PIXEL_BUDGETS: Readonly<Record<string, number>> = {
  jpeg: 200_000_000,
  png: 200_000_000,
  tiff: 200_000_000,
  webp: 70_000_000,
  gif: 30_000_000,
  svg: 30_000_000,
  avif: 13_000_000,
  heic: 15_000_000,
  /** HEVC decoded by the system's libheif (heif-dec / heif-convert) within HEIF_TOOL_MEMORY_BYTES: a 48-megapixel iPhone photo (8064 x 6048). */
  'heic-system': 50_000_000,
  /** A HEIF with neither codec's configuration: libvips tries it within AVIF's budget. */
  heif: 13_000_000,
  default: 30_000_000,
};

export const DISPLAY_PX = 1600;
export const THUMB_PX = 400;

/** What the derived files are for: a video's poster, a display size always (types browsers cannot show), when large, or never. */
export type LargeRule = 'poster' | 'always' | 'when-large' | 'never';

export type DecodeResult = (
  | { result: 'ready'; width: number; height: number; large: 'display' | 'poster' | null }
  | { result: 'none'; large: 'display' | 'poster' | null; reason?: string }
  | { result: 'too-large'; width: number; height: number; codec: string }
) & { peakKb?: number };

/** The child's first answer for a HEIC within the system decoder's budget: the server converts it, then a second child reads the result. */
type ChildAnswer = DecodeResult | { result: 'convert'; width: number; height: number; peakKb?: number };

/** The decoding children so far in this process: how many, and the largest peak resident memory one reported. */
export const childStats = { runs: 0, maxPeakBytes: 0 };

/** An optional program the server does not have: the upload is kept, and the page says what to install. */
export class MissingProgramError extends Error {
  constructor(readonly program: string) {
    super(`${program} is not installed`);
  }
}

/**
 * The child: argv[1] is the job as JSON. Writes `large.webp` and `thumb.webp` into the job's folder
 * and prints one line of JSON (a DecodeResult) on stdout.
 */
const CHILD = `
const job = JSON.parse(process.argv[1]);
// The server holds the other end of stdin: when it dies (kill -9 included), so does this child,
// instead of writing into a folder nobody will collect.
process.stdin.on('close', () => process.exit(1));
process.stdin.resume();
const { pathToFileURL } = await import('node:url');
const sharp = (await import(pathToFileURL(job.sharp).href)).default;
sharp.concurrency(1);
sharp.cache(false);
const { readFileSync } = await import('node:fs');
// Each answer carries the child's peak resident memory (VmHWM), for the server's figures.
const peakKb = () => Number(/VmHWM:\\s*(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
const say = (answer) => process.stdout.write(JSON.stringify({ ...answer, peakKb: peakKb() }) + '\\n');
const options = (limit) => ({ animated: false, failOn: 'none', limitInputPixels: limit, sequentialRead: true });
let meta;
try {
  meta = await sharp(job.source, options(false)).metadata();
} catch (error) {
  say({ result: 'none', large: null, reason: String(error.message).slice(0, 300) });
  process.exit(0);
}
const width = meta.width ?? 0;
const height = meta.pageHeight ?? meta.height ?? 0;
if (!width || !height) {
  say({ result: 'none', large: null, reason: 'no size' });
  process.exit(0);
}
// A HEIF's codec is its image's own codec configuration (av1C or hvcC, in the meta box), not the
// file's name or brand: libvips goes by the brand, so AV1 data branded 'heic' would pass as HEVC.
async function heifCodec(file) {
  const { open } = await import('node:fs/promises');
  const handle = await open(file);
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(16);
    for (let at = 0; at + 8 <= size; ) {
      const { bytesRead } = await handle.read(head, 0, 16, at);
      if (bytesRead < 8) break;
      let length = head.readUInt32BE(0);
      if (length === 1 && bytesRead === 16) length = Number(head.readBigUInt64BE(8));
      else if (length === 0) length = size - at;
      if (length < 8) break;
      if (head.toString('latin1', 4, 8) === 'meta') {
        const body = Buffer.alloc(Math.min(length, 8 * 1024 * 1024));
        await handle.read(body, 0, body.length, at);
        return body.includes('av1C') ? 'avif' : body.includes('hvcC') ? 'heic' : 'heif';
      }
      at += length;
    }
    return 'heif';
  } finally {
    await handle.close();
  }
}
const codec = meta.format === 'heif' ? await heifCodec(job.source) : meta.format;
// HEVC with the system's decoder: its own budget, and it is decoded there, in a process of its own.
const bySystem = codec === 'heic' && job.heifDecoder;
const budget = bySystem ? job.budgets['heic-system'] : job.budgets[codec] ?? job.budgets.default;
if (width * height > budget) {
  say({ result: 'too-large', width, height, codec });
  process.exit(0);
}
if (bySystem) {
  say({ result: 'convert', width, height });
  process.exit(0);
}
const large =
  job.rule === 'poster' ? 'poster' : job.rule === 'always' || (job.rule === 'when-large' && Math.max(width, height) > job.displayPx) ? 'display' : null;
let open = () => sharp(job.source, options(budget));
if (codec === 'heic') {
  // HEVC is beyond sharp's prebuilt libvips: libheif built to WebAssembly decodes the primary image
  // (its rotation and mirroring applied), and the pixels go to sharp as they are.
  const decode = (await import(pathToFileURL(job.heicDecode).href)).default;
  const { readFile } = await import('node:fs/promises');
  let image = await decode({ buffer: await readFile(job.source) });
  const pixels = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  const raw = { width: image.width, height: image.height, channels: 4 };
  image = null;
  open = () => sharp(pixels, { raw });
}
const timed = (pipeline) => pipeline.timeout({ seconds: job.timeoutSeconds });
// EXIF orientation, except for pixels libheif already turned (irot and imir applied; the EXIF tag,
// which iPhones also write, would turn them twice).
const orient = (pipeline) => (job.orient ? pipeline.rotate() : pipeline);
let base = null;
if (large) {
  // The large size first, then the thumbnail from it: the original is decoded once.
  const out = job.out + '/large.webp';
  await timed(orient(open()).resize(job.displayPx, job.displayPx, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 82 })).toFile(out);
  base = () => sharp(out);
}
try {
  const info = await timed((base ? base() : orient(open())).resize(job.thumbPx, job.thumbPx, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 72 })).toFile(job.out + '/thumb.webp');
  say({ result: 'ready', width: info.width, height: info.height, large });
} catch (error) {
  say({ result: 'none', large, reason: String(error.message).slice(0, 300) });
}
process.exit(0);
`;

const resolveModule = createRequire(import.meta.url).resolve;

/**
 * Runs a program with an argument array (never a shell), a time limit, and stdout kept (up to 64 KB).
 * Nothing is written to its stdin; it closes when the server exits, which the decoding child watches.
 */
export function run(program: string, args: readonly string[], timeoutMs: number, env?: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL', ...(env ? { env } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < 65_536) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new MissingProgramError(path.basename(program)) : error));
    child.on('close', (code, signal) => {
      if (code === 0) resolve(stdout);
      else reject(new ChildFailed(`${path.basename(program)} ${signal ? `killed (${signal})` : `exited ${code}`}: ${stderr.trim().slice(0, 500)}`));
    });
  });
}

/** The program ran and failed (a damaged file, the memory or time limit): no preview, and no point retrying. */
export class ChildFailed extends Error {}

/** The first of `names` found in the PATH (or /usr/bin, /bin), as a full path; null when none is installed. */
function findProgram(names: readonly string[]): string | null {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/bin', '/bin'];
  for (const name of names) {
    const found = dirs.map((dir) => path.join(dir, name)).find((file) => fs.existsSync(file));
    if (found) return found;
  }
  return null;
}

/** prlimit (util-linux, on every Linux), found once: the program it starts is looked up in the PATH of the moment. */
const PRLIMIT = findProgram(['prlimit']) ?? 'prlimit';

/**
 * The system's HEIF decoder, found once at start: libheif's own command-line tool (heif-dec from
 * libheif 1.17, heif-convert before it; Debian's libheif-examples). It decodes HEVC natively in
 * about 6 bytes a pixel where the WebAssembly build (heic-decode) needs about 14 in a Node process,
 * so it takes HEICs up to PIXEL_BUDGETS['heic-system'] (48-megapixel iPhone photos); without it
 * heic-decode takes them up to PIXEL_BUDGETS.heic. `program` null uses heic-decode (tests set it).
 */
export const heifDecoder: { program: string | null } = { program: findProgram(['heif-dec', 'heif-convert']) };

/**
 * Runs a program under the children's hard memory limit. RLIMIT_DATA counts what a process writes to
 * (heap, malloc, thread stacks, WebAssembly memory), not the address space it only reserves, so Node
 * starts under it; a 2 MB default thread stack and two malloc arenas keep threads from spending it
 * on nothing.
 */

export function runLimited(program: string, args: readonly string[], timeoutMs: number, dataBytes = CHILD_MEMORY_BYTES): Promise<string> {
  const limits = [`--data=${dataBytes}`, `--stack=${2 * 1024 * 1024}`, '--core=0'];
  const env = { ...process.env, MALLOC_ARENA_MAX: '2', UV_THREADPOOL_SIZE: '1' };
  return run(PRLIMIT, [...limits, '--', program, ...args], timeoutMs, env).catch((error: unknown) => {
    // prlimit names the program it could not start on stderr and exits 1; say which one is missing.
    if (error instanceof ChildFailed && / failed to execute /.test(error.message)) throw new MissingProgramError(path.basename(program));
    throw error;
  });
}

/**
 * Decodes `source` in a limited child and writes `large.webp` (when the rule asks) and `thumb.webp`
 * into `outDir`. A child that fails or is killed is 'none' with its reason.
 *
 * A HEIC, when the system's HEIF decoder is installed: the first child reads its header and checks
 * its budget, the decoder (under its own limit) writes it as a JPEG into `outDir`, and a second
 * child makes the WebPs from that, as from any JPEG. The three run one after another, never side by
 * side, so the peak is the largest of them, not their sum.
 */
export async function decodeInChild(source: string, outDir: string, rule: LargeRule, budgetMs = CHILD_TIMEOUT_MS): Promise<DecodeResult> {
  const decoder = heifDecoder.program;
  const until = performance.now() + budgetMs;
  /** What is left of the job's time for its next child (at least a moment, so a child can say it ran out). */
  const left = () => Math.max(250, Math.round(until - performance.now()));
  const first = await decodeStep(source, outDir, rule, { heifDecoder: decoder !== null, orient: true }, left());
  if (first.result !== 'convert' || decoder === null) return first as DecodeResult;
  const converted = path.join(outDir, 'heic.jpg');
  try {
    await runLimited(decoder, ['--quiet', '-q', '92', source, converted], left(), HEIF_TOOL_MEMORY_BYTES);
  } catch (error) {
    if (error instanceof ChildFailed) return { result: 'none', large: null, reason: error.message };
    // Removed since the server started: heic-decode, within its own budget.
    if (error instanceof MissingProgramError) return (await decodeStep(source, outDir, rule, { heifDecoder: false, orient: true }, left())) as DecodeResult;
    throw error;
  }
  // A file of several top-level images is written as heic-1.jpg, heic-2.jpg, ...: the first stands for it.
  const output = fs.existsSync(converted) ? converted : path.join(outDir, 'heic-1.jpg');
  if (!fs.existsSync(output)) return { result: 'none', large: null, reason: `${path.basename(decoder)} wrote no image` };
  const second = await decodeStep(output, outDir, rule, { heifDecoder: false, orient: false }, left());
  await fsp.rm(output, { force: true });
  return second.result === 'convert' ? { result: 'none', large: null, reason: 'converted twice' } : second;
}

async function decodeStep(
  source: string,
  outDir: string,
  rule: LargeRule,
  options: { heifDecoder: boolean; orient: boolean },
  timeoutMs: number,
): Promise<ChildAnswer> {
  const job = {
    sharp: resolveModule('sharp'),
    heicDecode: resolveModule('heic-decode'),
    source,
    out: outDir,
    rule,
    budgets: PIXEL_BUDGETS,
    displayPx: DISPLAY_PX,
    thumbPx: THUMB_PX,
    // libvips' own limit for the encode, well inside the child's (which a drawing that never
    // yields, an SVG's filters, reaches: SIGKILL).
    timeoutSeconds: Math.max(1, Math.floor(timeoutMs / 2000)),
    ...options,
  };
  let stdout: string;
  try {
    stdout = await runLimited(process.execPath, ['--v8-pool-size=1', '--input-type=module', '-e', CHILD, JSON.stringify(job)], timeoutMs);
  } catch (error) {
    if (error instanceof ChildFailed) return { result: 'none', large: null, reason: error.message };
    throw error;
  }
  const line = stdout.trim().split('\n').pop() ?? '';
  try {
    const answer = JSON.parse(line) as ChildAnswer;
    childStats.runs++;
    childStats.maxPeakBytes = Math.max(childStats.maxPeakBytes, (answer.peakKb ?? 0) * 1024);
    return answer;
  } catch {
    return { result: 'none', large: null, reason: `unreadable answer: ${line.slice(0, 200)}` };
  }
}
