/** Autofill of the upload form and the upload itself (XMLHttpRequest, for its progress events). */
import { EXIF_DATE_OPTIONS, MONTH_NAMES, readCaptureDate, type ByteSource, type CaptureDate, type UploadReply } from '@site/contracts/pictures';
import { parseNumber, type NumberRules } from '../../components/number.ts';

/** The date fields as typed: every character kept, read with the site's one number parser. */
export type DateParts = { year: string; month: string; day: string };

/** Each date field's rules: whole numbers only, within what the server keeps (contracts' parseCaptureDate: years 1800 to 2200). */
export const DATE_RULES: Readonly<Record<keyof DateParts, NumberRules>> = {
  year: { label: 'Year', whole: true, min: 1800, max: 2200 },
  month: { label: 'Month', whole: true, min: 1, max: 12 },
  day: { label: 'Day', whole: true, min: 1, max: 31 },
};

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * What is wrong with the date as a whole once each field reads as a number (each field says its own
 * refusal under itself): the page's partial-date rules, the server's. A year is the least a date
 * needs; an unknown month or day is left blank, so a day needs its month, and a month or day needs
 * the year; the day must exist in that month. Null when the date can be sent.
 */
export function dateProblem(parts: DateParts): string | null {
  const read = (name: keyof DateParts) => parseNumber(parts[name], DATE_RULES[name]);
  const year = read('year');
  const month = read('month');
  const day = read('day');
  if (!year.ok || !month.ok || !day.ok) return null;
  if (year.value === null && (month.value !== null || day.value !== null)) return 'Year is needed for a month or a day: the least a date needs is its year';
  if (month.value === null && day.value !== null) return 'Month is needed for a day: leave the day blank when the month is unknown';
  if (year.value !== null && month.value !== null && day.value !== null && day.value > daysIn(year.value, month.value)) {
    return `Day must be from 1 to ${daysIn(year.value, month.value)} in ${MONTH_NAMES[month.value - 1]} ${year.value}`;
  }
  return null;
}

/** Every refusal of the date as typed: the fields' own (as NumberInput shows them) and dateProblem's. */
export function dateErrors(parts: DateParts): string[] {
  const own = (Object.keys(DATE_RULES) as (keyof DateParts)[]).flatMap((name) => {
    const parsed = parseNumber(parts[name], DATE_RULES[name]);
    return parsed.ok ? [] : [parsed.message];
  });
  const whole = dateProblem(parts);
  return whole ? [...own, whole] : own;
}

/** The caption a file name suggests: 'IMG_0042.jpg' -> 'IMG_0042', 'beach day.png' -> 'beach day'. */
export function captionFromName(name: string): string {
  return name.replace(/\.[^.]*$/, '').trim().slice(0, 500);
}

const pad = (n: number) => String(n).padStart(2, '0');

export function partsOfDate(date: Date): DateParts {
  return { year: String(date.getFullYear()), month: pad(date.getMonth() + 1), day: pad(date.getDate()) };
}

/**
 * The form's date as the server reads it: blank month or day become 'xx'; nothing at all stays blank
 * (the server then reads the file's own date). Only for a date without dateErrors.
 */
export function dateField(parts: DateParts): string {
  const value = (name: keyof DateParts) => {
    const parsed = parseNumber(parts[name], DATE_RULES[name]);
    return parsed.ok ? parsed.value : null;
  };
  const year = value('year');
  if (year === null) return '';
  const part = (n: number | null) => (n === null ? 'xx' : pad(n));
  return `${year}-${part(value('month'))}-${part(value('day'))}`;
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

/** Where the suggested date of `file` came from, in words: a video's own date is the video's, not a photo's. */
export function dateNote(file: { type: string; name: string }, from: 'photo' | 'file'): string {
  if (from === 'file') return "Date from the file's modified date.";
  const video = file.type.startsWith('video/') || /\.(mp4|mov|m4v|3gp|webm|mkv|avi)$/i.test(file.name);
  return video ? 'Date read from the video.' : 'Date read from the photo.';
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
