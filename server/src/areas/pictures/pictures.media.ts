import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fsp from 'node:fs/promises';
import path from 'node:path';
import exifr from 'exifr';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { EXIF_DATE_OPTIONS, mediaKind, readCaptureDate, showsInBrowser, type ByteSource, type CaptureDate } from '@site/contracts';
import type { MediaStorage } from '../../media/index.ts';
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

/** Tells the type from the file's first bytes, never from its name. SVG is text, so it is read as text. */
export async function sniff(head: Buffer): Promise<Sniffed> {
  const detected = await fileTypeFromBuffer(head);
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

/** An optional program the server does not have: the upload is kept, and the page says what to install. */
export class MissingProgramError extends Error {
  constructor(readonly program: string) {
    super(`${program} is not installed`);
  }
}

/** Runs a program with an argument array (never a shell), a time limit, and stdin closed. */
function run(program: string, args: readonly string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new MissingProgramError(path.basename(program)) : error));
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(program)} ${signal ? `killed (${signal})` : `exited ${code}`}: ${stderr.trim().slice(0, 500)}`));
    });
  });
}

/** Runs ffmpeg (argument array, time limit, stdin closed); MissingProgramError when it is not installed. */
export function runFfmpeg(args: readonly string[], timeoutMs = FFMPEG_TIMEOUT_MS): Promise<void> {
  return run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], timeoutMs);
}

const THUMB_PX = 400;
const DISPLAY_PX = 1600;
/**
 * The pixel budget of one picture: enough for a 14,000 x 14,000 PNG, which is decoded a strip at a
 * time (sequential read) into one shrinking pipeline, so it adds well under 150 MB; anything larger
 * gets no thumbnail rather than a server out of memory.
 */
export const PIXEL_LIMIT = 200_000_000;
/** HEIC is decoded whole (4 bytes a pixel, in a child process): up to a 48-megapixel iPhone photo. */
const HEIC_PIXEL_LIMIT = 50_000_000;
/** A picture that cannot be decoded in this time gets no thumbnail (and is not tried again). */
const DECODE_TIMEOUT_SECONDS = 10;
const HEIC_TIMEOUT_MS = 60_000;

export type Derived = {
  thumb: 'ready' | 'none';
  width: number | null;
  height: number | null;
  display: boolean;
  poster: boolean;
  /** The program a preview needs that this server lacks ('ffmpeg'); null when none is missing. */
  needs: string | null;
};

const NONE: Derived = { thumb: 'none', width: null, height: null, display: false, poster: false, needs: null };

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
  await attempt(() => runFfmpeg(['-i', input, '-frames:v', '1', out], DECODE_TIMEOUT_SECONDS * 1000));
  return (await exists(out)) ? out : null;
}

/**
 * HEIC's HEVC images are beyond sharp's prebuilt libvips: heic-decode (libheif compiled to
 * WebAssembly, so it needs nothing installed) decodes the primary image, with its rotation and
 * mirroring applied, in a child process, so its memory and CPU stay out of the server's; the child
 * writes it at display size as a PNG in `dir`.
 */
const HEIC_CHILD = `
const [decodePath, sharpPath, input, output, size] = process.argv.slice(1);
const { pathToFileURL } = await import('node:url');
const { readFile } = await import('node:fs/promises');
const decode = (await import(pathToFileURL(decodePath).href)).default;
const sharp = (await import(pathToFileURL(sharpPath).href)).default;
const image = await decode({ buffer: await readFile(input) });
const pixels = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
await sharp(pixels, { raw: { width: image.width, height: image.height, channels: 4 } })
  .resize(Number(size), Number(size), { fit: 'inside', withoutEnlargement: true })
  .png({ compressionLevel: 1 })
  .toFile(output);
`;
const resolveModule = createRequire(import.meta.url).resolve;

export async function heicStill(input: string, dir: string, size = DISPLAY_PX): Promise<string | null> {
  const meta = await attempt(() => sharp(input).metadata());
  if (!meta?.width || !meta.height || meta.width * meta.height > HEIC_PIXEL_LIMIT) return null;
  const out = path.join(dir, 'heic.png');
  const args = ['--input-type=module', '-e', HEIC_CHILD, resolveModule('heic-decode'), resolveModule('sharp'), input, out, String(size)];
  await attempt(() => run(process.execPath, args, HEIC_TIMEOUT_MS));
  return (await exists(out)) ? out : null;
}

/** One derivation at a time in this process: a large picture's decode never meets another's. */
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const result = queue.then(work, work);
  queue = result.catch(() => undefined);
  return result;
}

/**
 * Makes a picture's derived files: a ~400 px WebP thumbnail with the EXIF orientation applied; a
 * display-size WebP for large stills and for every type a browser cannot show (HEIC, TIFF, BMP,
 * PSD); for videos a poster frame. A damaged file is read as far as it goes (failOn 'none'); one with
 * nothing decodable gets no thumbnail at once, not after retries. Returns what exists afterwards.
 */
export function deriveFiles(media: MediaStorage, stem: string, fileType: string): Promise<Derived> {
  return oneAtATime(() => derive(media, stem, fileType));
}

async function derive(media: MediaStorage, stem: string, fileType: string): Promise<Derived> {
  const input = media.localPath(originalKey(stem, fileType));
  const kind = mediaKind(fileType);
  if (kind === 'other') return NONE;
  const tmp = await media.tempDir('derive');
  try {
    let source: string | null;
    try {
      if (kind === 'video') source = await videoFrame(input, tmp.path);
      else if (fileType === 'bmp' || fileType === 'psd') source = await stillViaFfmpeg(input, tmp.path);
      // A HEIF the WebAssembly decoder cannot read (AV1 inside a .heic) may still be libvips'.
      else if (fileType === 'heic') source = (await heicStill(input, tmp.path)) ?? input;
      else source = input;
    } catch (error) {
      if (error instanceof MissingProgramError) return { ...NONE, needs: error.program };
      throw error;
    }
    if (!source) return NONE;
    const open = (from: string | Buffer) =>
      sharp(from, { animated: false, failOn: 'none', limitInputPixels: PIXEL_LIMIT, sequentialRead: true }).timeout({
        seconds: DECODE_TIMEOUT_SECONDS,
      });
    const meta = await attempt(() => open(source).metadata());
    if (!meta?.width || !meta.height) return NONE;

    // The large size first, then the thumbnail from it: the original is decoded once.
    const longest = Math.max(meta.width, meta.height);
    const large = kind === 'video' ? 'poster' : fileType !== 'gif' && fileType !== 'svg' && (longest > DISPLAY_PX || !showsInBrowser(fileType)) ? 'display' : null;
    let base: string | Buffer = source;
    if (large) {
      const data = await attempt(() =>
        open(source).rotate().resize(DISPLAY_PX, DISPLAY_PX, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 82 }).toBuffer(),
      );
      if (!data) return NONE;
      await media.put(variantKey(stem, large), data);
      base = data;
    }
    const thumb = await attempt(() =>
      open(base).rotate().resize(THUMB_PX, THUMB_PX, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 72 }).toBuffer({ resolveWithObject: true }),
    );
    if (!thumb) return { ...NONE, display: large === 'display', poster: large === 'poster' };
    await media.put(variantKey(stem, 'thumb'), thumb.data);
    return { thumb: 'ready', width: thumb.info.width, height: thumb.info.height, display: large === 'display', poster: large === 'poster', needs: null };
  } finally {
    await tmp.remove();
  }
}
