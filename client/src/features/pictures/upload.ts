/** Autofill of the upload form and the upload itself (XMLHttpRequest, for its progress events). */

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

/**
 * The photo's own capture date from its EXIF, read in the browser (exifr, loaded only when needed);
 * otherwise the file's modified date.
 */
export async function suggestedDate(file: File): Promise<{ parts: DateParts; from: 'photo' | 'file' }> {
  if (file.type.startsWith('image/') || /\.(jpe?g|png|heic|tiff?)$/i.test(file.name)) {
    try {
      const { default: exifr } = await import('exifr');
      const tags = (await exifr.parse(file, { pick: ['DateTimeOriginal', 'CreateDate'], reviveValues: false })) as
        | { DateTimeOriginal?: unknown; CreateDate?: unknown }
        | undefined;
      const raw = tags?.DateTimeOriginal ?? tags?.CreateDate;
      const m = typeof raw === 'string' ? /^(\d{4}):(\d{2}):(\d{2})/.exec(raw) : null;
      if (m?.[1] && m[2] && m[3]) return { parts: { year: m[1], month: m[2], day: m[3] }, from: 'photo' };
    } catch {
      // no readable EXIF: fall back to the file's date
    }
  }
  return { parts: partsOfDate(new Date(file.lastModified)), from: 'file' };
}

export type UploadResult = { ok: true; pending: boolean; message: string } | { ok: false; message: string };

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
      const body = (xhr.response ?? {}) as { message?: string; pending?: boolean };
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve({ ok: true, pending: body.pending === true, message: body.message ?? 'Uploaded' });
      } else {
        resolve({ ok: false, message: body.message ?? `Upload failed (${xhr.status})` });
      }
    };
    xhr.onerror = () => resolve({ ok: false, message: 'The upload failed: the connection was lost' });
    xhr.send(form);
  });
}
