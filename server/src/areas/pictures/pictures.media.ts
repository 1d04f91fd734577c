import { spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import exifr from 'exifr';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { mediaKind, type CaptureDate } from '@site/contracts';
import type { MediaStorage } from '../../media/index.ts';
import { originalKey, variantKey } from './pictures.files.ts';

/** What file-type says a type is, mapped to the types the gallery stores. */
const DETECTED: Record<string, { ext: string; mime: string }> = {
  jpg: { ext: 'jpg', mime: 'image/jpeg' },
  png: { ext: 'png', mime: 'image/png' },
  gif: { ext: 'gif', mime: 'image/gif' },
  bmp: { ext: 'bmp', mime: 'image/bmp' },
  psd: { ext: 'psd', mime: 'image/vnd.adobe.photoshop' },
  mp4: { ext: 'mp4', mime: 'video/mp4' },
  m4v: { ext: 'mp4', mime: 'video/mp4' },
  mov: { ext: 'mov', mime: 'video/quicktime' },
  webm: { ext: 'webm', mime: 'video/webm' },
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

/** The photo's own capture date from its EXIF (DateTimeOriginal, else CreateDate), or null. */
export async function exifDate(file: string): Promise<CaptureDate | null> {
  try {
    const tags = (await exifr.parse(file, { pick: ['DateTimeOriginal', 'CreateDate'], reviveValues: false })) as
      | { DateTimeOriginal?: unknown; CreateDate?: unknown }
      | undefined;
    const raw = tags?.DateTimeOriginal ?? tags?.CreateDate;
    if (typeof raw !== 'string') return null;
    const m = /^(\d{4}):(\d{2}):(\d{2})/.exec(raw);
    if (!m) return null;
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (year < 1800 || year > 2200 || month < 1 || month > 12 || day < 1 || day > 31) return null;
    return { year, month, day };
  } catch {
    return null;
  }
}

const FFMPEG_TIMEOUT_MS = 120_000;

/** Runs ffmpeg with an argument array (never a shell), a time limit, and stdin closed. */
export function runFfmpeg(args: readonly string[], timeoutMs = FFMPEG_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg ${signal ? `killed (${signal})` : `exited ${code}`}: ${stderr.trim().slice(0, 500)}`));
    });
  });
}

const THUMB_PX = 400;
const DISPLAY_PX = 1600;

export type Derived = { thumb: 'ready' | 'none'; width: number | null; height: number | null; display: boolean; poster: boolean };

async function exists(file: string): Promise<boolean> {
  return fsp.stat(file).then(
    (s) => s.size > 0,
    () => false,
  );
}

/** A frame of a video (1 s in, or the first when shorter), as a PNG in `dir`; null when none. */
async function videoFrame(input: string, dir: string): Promise<string | null> {
  const out = path.join(dir, 'frame.png');
  for (const at of ['1', '0']) {
    try {
      await runFfmpeg(['-ss', at, '-i', input, '-frames:v', '1', '-an', out]);
      if (await exists(out)) return out;
    } catch {
      // try the next position
    }
  }
  return null;
}

/** BMP and PSD are beyond sharp's prebuilt decoders; ffmpeg reads both. */
async function stillViaFfmpeg(input: string, dir: string): Promise<string | null> {
  const out = path.join(dir, 'still.png');
  try {
    await runFfmpeg(['-i', input, '-frames:v', '1', out]);
    return (await exists(out)) ? out : null;
  } catch {
    return null;
  }
}

/**
 * Makes a picture's derived files: a ~400 px WebP thumbnail with the EXIF orientation applied, a
 * display-size WebP for large stills, and for videos a poster frame. Returns what exists afterwards.
 */
export async function deriveFiles(media: MediaStorage, stem: string, fileType: string): Promise<Derived> {
  const input = media.localPath(originalKey(stem, fileType));
  const kind = mediaKind(fileType);
  const none: Derived = { thumb: 'none', width: null, height: null, display: false, poster: false };
  if (kind === 'other') return none;
  const tmp = await media.tempDir('derive');
  try {
    let source: string | null = input;
    if (kind === 'video') source = await videoFrame(input, tmp.path);
    else if (fileType === 'bmp' || fileType === 'psd') source = await stillViaFfmpeg(input, tmp.path);
    if (!source) return none;

    const still = () => sharp(source, { animated: false, limitInputPixels: 200_000_000 }).rotate();
    const meta = await still().metadata();
    const thumb = await still()
      .resize(THUMB_PX, THUMB_PX, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 72 })
      .toBuffer({ resolveWithObject: true });
    await media.put(variantKey(stem, 'thumb'), thumb.data);

    const longest = Math.max(meta.width ?? 0, meta.height ?? 0);
    // Videos get a poster; stills a display size when the original is large or not a web format.
    let display = false;
    let poster = false;
    if (kind === 'video') {
      const data = await still().resize(DISPLAY_PX, DISPLAY_PX, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
      await media.put(variantKey(stem, 'poster'), data);
      poster = true;
    } else if (fileType !== 'gif' && fileType !== 'svg' && (longest > DISPLAY_PX || fileType === 'bmp' || fileType === 'psd')) {
      const data = await still().resize(DISPLAY_PX, DISPLAY_PX, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 82 }).toBuffer();
      await media.put(variantKey(stem, 'display'), data);
      display = true;
    }
    return { thumb: 'ready', width: thumb.info.width, height: thumb.info.height, display, poster };
  } finally {
    await tmp.remove();
  }
}
