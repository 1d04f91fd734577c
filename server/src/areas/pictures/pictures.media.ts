import fsp from 'node:fs/promises';
import path from 'node:path';
import exifr from 'exifr';
import { EXIF_DATE_OPTIONS, mediaKind, readCaptureDate, showsInBrowser, type ByteSource, type CaptureDate } from '@site/contracts';
import type { MediaStorage } from '../../media/index.ts';
import { decodeInChild, MissingProgramError, runLimited, timeBudgetOf, type DecodeResult } from './pictures.decode.ts';
import { originalKey, variantKey } from './pictures.files.ts';

/** What file-type says a type is, mapped to the types the gallery stores (and the type it is served as). */
const DETECTED: Record<string, { ext: string; mime: string }> = {
  jpg: { ext: 'jpg', mime: 'image/jpeg' },
  png: { ext: 'png', mime: 'image/png' },
  apng: { ext: 'png', mime: 'image/png' },
  gif: { ext: 'gif', mime: 'image/gif' },
  bmp: { ext: 'bmp', mime: 'image/bmp' },
  psd: { ext: 'psd', mime: 'image/vnd.adobe.photoshop' },
  webp: { ext: 'webp', mime: 'image/webp' },
  avif: { ext: 'avif', mime: 'image/avif' },
  heic: { ext: 'heic', mime: 'image/heic' },
  tif: { ext: 'tif', mime: 'image/tiff' },
  mp4: { ext: 'mp4', mime: 'video/mp4' },
  m4v: { ext: 'm4v', mime: 'video/mp4' },
  mov: { ext: 'mov', mime: 'video/quicktime' },
  webm: { ext: 'webm', mime: 'video/webm' },
  '3gp': { ext: '3gp', mime: 'video/3gpp' },
  '3g2': { ext: '3g2', mime: 'video/3gpp2' },
  avi: { ext: 'avi', mime: 'video/x-msvideo' },
  mkv: { ext: 'mkv', mime: 'video/x-matroska' },
  mts: { ext: 'mts', mime: 'video/mp2t' },
  mpg: { ext: 'mpg', mime: 'video/mpeg' },
  asf: { ext: 'wmv', mime: 'video/x-ms-wmv' },
  flv: { ext: 'flv', mime: 'video/x-flv' },
  ogv: { ext: 'ogv', mime: 'video/ogg' },
  dng: { ext: 'dng', mime: 'image/x-adobe-dng' },
  cr2: { ext: 'cr2', mime: 'image/x-canon-cr2' },
  cr3: { ext: 'cr3', mime: 'image/x-canon-cr3' },
  nef: { ext: 'nef', mime: 'image/x-nikon-nef' },
  arw: { ext: 'arw', mime: 'image/x-sony-arw' },
  orf: { ext: 'orf', mime: 'image/x-olympus-orf' },
  rw2: { ext: 'rw2', mime: 'image/x-panasonic-rw2' },
  raf: { ext: 'raf', mime: 'image/x-fujifilm-raf' },
};

export type Sniffed = { ok: true; ext: string; mime: string } | { ok: false; found: string };

/**
 * Tells the type from the file's bytes, never from its name. file-type reads the file itself, as far
 * as it needs: a TIFF's directory may sit after the pixels, at the end of the file (ImageMagick,
 * libvips, scanners). SVG is text, so it is read as text from the first bytes.
 */
export async function sniff(file: { path: string; head: Buffer }): Promise<Sniffed> {
  const detected = await (await import('file-type')).fileTypeFromFile(file.path);
  const head = file.head;
  if (detected && detected.ext !== 'xml') {
    const known = DETECTED[detected.ext];
    return known ? { ok: true, ...known } : { ok: false, found: `${detected.ext.toUpperCase()} (${detected.mime})` };
  }
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text)) {
    return { ok: true, ext: 'svg', mime: 'image/svg+xml' };
  }
  // eslint-disable-next-line no-control-regex -- binary bytes are what is looked for
  const looksText = head.length > 0 && !/[\u0000-\u0008\u000e-\u001a]/.test(head.toString('latin1'));
  return { ok: false, found: looksText ? 'text' : 'of an unrecognised type' };
}

/** The file's own capture date (contracts' readCaptureDate, the same reading the upload page makes), or null. */
export async function fileCaptureDate(file: string): Promise<CaptureDate | null> {
  const handle = await fsp.open(file).catch(() => null);
  if (!handle) return null;
  try {
    const { size } = await handle.stat();
    const source: ByteSource = {
      size,
      async read(offset, length) {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
        return buffer.subarray(0, bytesRead);
      },
    };
    const found = await readCaptureDate(source, (tiff) => exifr.parse(tiff ?? file, { ...EXIF_DATE_OPTIONS, pick: [...EXIF_DATE_OPTIONS.pick] }));
    return found?.date ?? null;
  } finally {
    await handle.close();
  }
}

const FFMPEG_TIMEOUT_MS = 120_000;
/** A BMP or PSD that ffmpeg cannot turn into a still in this time gets no preview. */
const STILL_TIMEOUT_MS = 20_000;

/**
 * Runs ffmpeg (argument array, time limit, stdin closed, the children's memory limit); MissingProgramError when it is not installed.
 * One decoding thread: by default ffmpeg decodes a frame per core ahead, each a frame's memory (a
 * 1080p poster: 112 MB peak on 2 cores, 96 MB with one thread), for one frame wanted.
 */
export async function runFfmpeg(args: readonly string[], timeoutMs = FFMPEG_TIMEOUT_MS): Promise<void> {
  await runLimited('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-threads', '1', ...args], timeoutMs);
}

export type Derived = {
  thumb: 'ready' | 'none';
  width: number | null;
  height: number | null;
  display: boolean;
  poster: boolean;
  /** The program a preview needs that this server lacks ('ffmpeg'); null when none is missing. */
  needs: string | null;
  /** The picture declares more pixels than its codec's budget: no preview, the original is kept. */
  tooLarge: boolean;
};

export const NO_PREVIEW: Derived = { thumb: 'none', width: null, height: null, display: false, poster: false, needs: null, tooLarge: false };

async function exists(file: string): Promise<boolean> {
  return fsp.stat(file).then(
    (s) => s.size > 0,
    () => false,
  );
}

/** Runs a step whose failure means "no picture here" (not worth a retry); MissingProgramError goes on up. */
async function attempt<T>(step: () => Promise<T>): Promise<T | null> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof MissingProgramError) throw error;
    return null;
  }
}

/** A frame of a video (1 s in, or the first when shorter), as a PNG in `dir`; null when none. */
async function videoFrame(input: string, dir: string): Promise<string | null> {
  const out = path.join(dir, 'frame.png');
  for (const at of ['1', '0']) {
    await attempt(() => runFfmpeg(['-ss', at, '-i', input, '-frames:v', '1', '-an', out]));
    if (await exists(out)) return out;
  }
  return null;
}

/** BMP and PSD are beyond sharp's prebuilt decoders; ffmpeg reads both. */
async function stillViaFfmpeg(input: string, dir: string): Promise<string | null> {
  const out = path.join(dir, 'still.png');
  await attempt(() => runFfmpeg(['-i', input, '-frames:v', '1', out], STILL_TIMEOUT_MS));
  return (await exists(out)) ? out : null;
}

/**
 * One derivation at a time in this process: children never decode side by side, so the server and
 * its children stay within one child's memory limit (the jobs' order is fair between members, and
 * each job's time is bounded per format: see claimJob and JOB_TIME_BUDGETS_MS).
 */
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const result = queue.then(work, work);
  queue = result.catch(() => undefined);
  return result;
}

/**
 * Makes a picture's derived files: a ~400 px WebP thumbnail with the EXIF orientation applied; a
 * display-size WebP for large stills and for every type a browser cannot show (HEIC, TIFF, BMP,
 * PSD); for videos a poster frame. All decoding happens in a limited child (pictures.decode.ts); a
 * picture over its codec's budget is not decoded at all. A damaged file is read as far as it goes
 * (failOn 'none'); one with nothing decodable gets no thumbnail at once, not after retries.
 * Returns what exists afterwards.
 */
export function deriveFiles(media: MediaStorage, stem: string, fileType: string, readOriginal?: (file: string) => Promise<void>): Promise<Derived> {
  return oneAtATime(() => derive(media, stem, fileType, readOriginal));
}

/** `readOriginal`: more to read from the original while the store lends it (in a bucket, one download for both). */
async function derive(media: MediaStorage, stem: string, fileType: string, readOriginal?: (file: string) => Promise<void>): Promise<Derived> {
  const kind = mediaKind(fileType);
  if (kind === 'other') return NO_PREVIEW;
  const tmp = await media.tempDir('derive');
  try {
    let decoded: DecodeResult | null;
    try {
      decoded = await media.withLocalFile(originalKey(stem, fileType), async (input) => {
        await readOriginal?.(input);
        let source: string | null;
        if (kind === 'video') source = await videoFrame(input, tmp.path);
        else if (fileType === 'bmp' || fileType === 'psd') source = await stillViaFfmpeg(input, tmp.path);
        else source = input;
        if (!source) return null;
        const rule = kind === 'video' ? 'poster' : fileType === 'gif' || fileType === 'svg' ? 'never' : showsInBrowser(fileType) ? 'when-large' : 'always';
        return decodeInChild(source, tmp.path, rule, timeBudgetOf(fileType));
      });
    } catch (error) {
      if (error instanceof MissingProgramError) return { ...NO_PREVIEW, needs: error.program };
      throw error;
    }
    if (!decoded) return NO_PREVIEW;
    if (decoded.result === 'too-large') return { ...NO_PREVIEW, tooLarge: true };
    const large = decoded.large;
    if (large) await media.put(variantKey(stem, large), await fsp.readFile(path.join(tmp.path, 'large.webp')));
    if (decoded.result === 'none') return { ...NO_PREVIEW, display: large === 'display', poster: large === 'poster' };
    await media.put(variantKey(stem, 'thumb'), await fsp.readFile(path.join(tmp.path, 'thumb.webp')));
    return { ...NO_PREVIEW, thumb: 'ready', width: decoded.width, height: decoded.height, display: large === 'display', poster: large === 'poster' };
  } finally {
    await tmp.remove();
  }
}
