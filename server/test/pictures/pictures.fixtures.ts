import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';

/** Real files for the tests, made here: no binary fixtures in the repository. */

/** The row of a picture (a 10-byte JPEG nobody will open) taken on [year, month, day], 0 = unknown. */
export function pictureRow(by: { id: number } | null, caption: string, date: [number, number, number], status: 'approved' | 'pending' = 'approved') {
  return {
    stem: randomBytes(16).toString('hex'),
    file_type: 'jpg',
    mime: 'image/jpeg',
    size_bytes: 10,
    caption,
    year: date[0],
    month: date[1],
    day: date[2],
    status,
    uploaded_by: by?.id ?? null,
    sha256: null,
  } as const;
}

/** A JPEG whose EXIF says it was taken on `date` ('2021:07:15 10:20:30') and is rotated 90° (orientation 6). */
export function jpegWithExif(date = '2021:07:15 10:20:30', size = { width: 600, height: 400 }): Promise<Buffer> {
  return sharp({ create: { ...size, channels: 3, background: '#3366cc' } })
    .jpeg({ quality: 80 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD2: { DateTimeOriginal: date } })
    .toBuffer();
}

export function png(size = { width: 300, height: 200 }, background = '#cc6633'): Promise<Buffer> {
  return sharp({ create: { ...size, channels: 4, background } }).png().toBuffer();
}

let mp4Cache: Buffer | undefined;
/** A two-second 160x120 H.264 MP4 made by ffmpeg. */
export function mp4(): Buffer {
  if (mp4Cache) return mp4Cache;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pictures-mp4-'));
  const out = path.join(dir, 'clip.mp4');
  execFileSync('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc=duration=2:size=160x120:rate=10',
    '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-movflags', '+faststart', out,
  ]);
  mp4Cache = fs.readFileSync(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return mp4Cache;
}

export const SVG_WITH_SCRIPT = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><script>alert(1)</script><rect width="40" height="40" fill="red"/></svg>',
);

export type Upload = { name: string; data: Buffer; type?: string };

/** A multipart/form-data body the way a browser's FormData sends it: the file first, then the fields. */
export function multipart(file: Upload | null, fields: Record<string, string> = {}, extraFiles: Upload[] = []) {
  const boundary = `----picturesTest${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  const addFile = (f: Upload) => {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  };
  if (file) addFile(file);
  for (const f of extraFiles) addFile(f);
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function uploadVia(app: FastifyInstance, cookie: string | undefined, file: Upload | null, fields: Record<string, string> = {}) {
  const body = multipart(file, fields);
  return app.inject({
    method: 'POST',
    url: '/api/pictures/upload',
    headers: { 'content-type': body.contentType, ...(cookie ? { cookie } : {}) },
    payload: body.payload,
  });
}

export function tempMediaDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'pictures-media-'));
}

/** Every file under a folder, relative, sorted (to prove nothing was left behind). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort();
}
