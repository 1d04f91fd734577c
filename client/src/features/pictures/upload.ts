/** Autofill of the upload form and the upload itself (XMLHttpRequest, for its progress events). */
import { EXIF_DATE_OPTIONS, readCaptureDate, type ByteSource, type CaptureDate, type UploadReply } from '@site/contracts/pictures';

export type DateParts = { year: string; month: string; day: string };

/** The caption a file name suggests: 'IMG_0042.jpg' -> 'IMG_0042', 'beach day.png' -> 'beach day'. */
export function captionFromName(name: string): string {
  return name.replace(/\.[^.]*$/, '').trim().slice(0, 500);
}

const pad = (n: number) => String(n).padStart(2, '0');

export function partsOfDate(date: Date): DateParts {
  return { year: String(date.getFullYear()), month: pad(date.getMonth() + 1), day: pad(date.getDate()) };
}

/** The form's date as the server reads it: blank month or day become 'xx'; nothing at all stays blank. */
export function dateField(parts: DateParts): string {
  const year = parts.year.trim();
  if (year === '') return '';
  const part = (v: string) => (v.trim() === '' ? 'xx' : v.trim().padStart(2, '0'));
  return `${year}-${part(parts.month)}-${part(parts.day)}`;
}

/** A slice's bytes (FileReader: every browser has it, and so has the test DOM). */
function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(blob);
  });
}

/** A browser File as contracts' ByteSource: slices read on demand, never the whole file at once. */
function fileSource(file: Blob): ByteSource {
  return { size: file.size, read: (offset, length) => bytesOf(file.slice(offset, offset + length)) };
}

/**
 * The file's own capture date, read exactly as the server reads it when the form sends no date
 * (contracts' readCaptureDate: EXIF, XMP, QuickTime; exifr loaded only when needed); otherwise the
 * file's modified date.
 */
export async function suggestedDate(file: File): Promise<{ parts: DateParts; from: 'photo' | 'file' }> {
  const found = await photoDate(file);
  if (found) {
    const part = (n: number) => (n === 0 ? '' : pad(n));
    return { parts: { year: String(found.year), month: part(found.month), day: part(found.day) }, from: 'photo' };
  }
  return { parts: partsOfDate(new Date(file.lastModified)), from: 'file' };
}

/** The capture date the file itself carries, or null (the same answer as the server's fallback). */
export async function photoDate(file: Blob): Promise<CaptureDate | null> {
  const readExif = async (tiff?: Uint8Array) => {
    const { default: exifr } = await import('exifr');
    return exifr.parse(tiff ?? file, { ...EXIF_DATE_OPTIONS, pick: [...EXIF_DATE_OPTIONS.pick] }) as Promise<unknown>;
  };
  const found = await readCaptureDate(fileSource(file), readExif).catch(() => null);
  return found?.date ?? null;
}

export type UploadResult =
  | { ok: true; pending: boolean; message: string; duplicate: boolean; link: string | null }
  | { ok: false; message: string };

/** Sends one file with its caption and date; reports progress from 0 to 1. */
export function uploadFile(
  file: File,
  fields: { caption: string; date: string },
  onProgress: (fraction: number) => void,
): Promise<UploadResult> {
  return new Promise((resolve) => {
    const form = new FormData();
    form.append('file', file, file.name);
    form.append('caption', fields.caption);
    form.append('date', fields.date);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/pictures/upload');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = (xhr.response ?? {}) as Partial<UploadReply>;
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve({ ok: true, pending: body.pending === true, message: body.message ?? 'Uploaded', duplicate: body.duplicate === true, link: body.link ?? null });
      } else {
        resolve({ ok: false, message: body.message ?? `Upload failed (${xhr.status})` });
      }
    };
    xhr.onerror = () => resolve({ ok: false, message: 'The upload failed: the connection was lost' });
    xhr.send(form);
  });
}
