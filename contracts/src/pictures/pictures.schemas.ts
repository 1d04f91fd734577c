import { z } from 'zod';
import { MAX_ROW_ID } from '../row-id.ts';
import { NAMED_ISSUE, text } from '../text.ts';

/**
 * Pictures: the gallery's paging rules, the capture date written `year-month-day` with 'xx' for an
 * unknown month or day, and the file types the gallery shows.
 */

/** Camera raw files: kept as they are, previewed where libvips reads them (DNG and most TIFF-based ones). */
export const RAW_TYPES = ['dng', 'cr2', 'cr3', 'nef', 'arw', 'orf', 'rw2', 'raf'] as const;
export const IMAGE_TYPES = ['jpg', 'jpeg', 'gif', 'png', 'bmp', 'svg', 'psd', 'webp', 'avif', 'heic', 'tif', ...RAW_TYPES] as const;
export const VIDEO_TYPES = ['mp4', 'mov', 'webm', 'm4v', '3gp', '3g2', 'avi', 'mkv', 'mts', 'mpg', 'wmv', 'flv', 'ogv'] as const;
/**
 * What a browser shows by itself. Every other type (HEIC, TIFF, BMP, PSD; 3GP, AVI, ...) is seen
 * through the display WebP or poster made on upload, and its original is offered as a download.
 */
export const BROWSER_TYPES = ['jpg', 'jpeg', 'gif', 'png', 'svg', 'webp', 'avif', 'mp4', 'mov', 'webm', 'm4v'] as const;
export const showsInBrowser = (fileType: string) => (BROWSER_TYPES as readonly string[]).includes(fileType.toLowerCase());
export type MediaKind = 'image' | 'video' | 'other';

export function mediaKind(fileType: string): MediaKind {
  const t = fileType.toLowerCase();
  if ((IMAGE_TYPES as readonly string[]).includes(t)) return 'image';
  if ((VIDEO_TYPES as readonly string[]).includes(t)) return 'video';
  return 'other';
}

export const DEFAULT_GALLERY_PATH = '/personal/pictures/month/0';
/** Largest page size a number page may ask for. */
export const MAX_PAGE_SIZE = 500;
/** The form's caption: what the file name autofills, or what the uploader typed. */
export const CAPTION_MAX = 500;

export const pictureMessages = {
  unrecognisedType: 'This file is of an unrecognized type. Please contact the site owner.',
  badType: 'Type must be month, year or a page size from 1 to 500',
  badIndex: 'Index must be a whole number from 0',
  badPic: 'Pic must be a whole number from 0',
  noPicture: 'There is no picture at that position',
  notFound: 'That picture does not exist',
  badDate: 'Date must be written year-month-day, like 2024-07-15; an unknown month or day may be blank or xx',
  noFile: 'Choose a file to upload',
  oneFile: 'Send one file per upload',
  wrongBytes: (found: string) =>
    `The file's contents are ${found}, not a picture or video this site can show (jpg, png, gif, heic, webp, avif, tiff, bmp, svg, psd, camera raw, mp4, mov, m4v, 3gp, webm, avi, mkv, mts, mpg, wmv, flv or ogv)`,
  duplicate: 'Already in the gallery',
  /** The same bytes wait for approval from another member: nothing of that picture is told. */
  duplicateWaiting: 'Already uploaded, waiting for approval',
  tooLargeToPreview: 'No preview: the picture is too large to preview',
  tooBig: (limit: string) => `The file is larger than the upload limit of ${limit}`,
  notMultipart: 'Send the upload as multipart/form-data',
  broken: 'The upload was cut off before it finished; nothing was saved',
  pendingNote: 'Uploaded. An admin approves pictures from Friend accounts before others see them.',
};

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** A page type: 'month', 'year' or a page size. The /api path sends it as text ('month', '24'). */
export type PageType = 'month' | 'year' | number;

export const pageTypeSchema = z.union([z.string(), z.number()]).transform((value, ctx): PageType => {
  const raw = typeof value === 'number' ? String(value) : value.trim().toLowerCase();
  if (raw === 'month' || raw === 'year') return raw;
  if (/^\d{1,4}$/.test(raw)) {
    const n = Number(raw);
    if (n >= 1 && n <= MAX_PAGE_SIZE) return n;
  }
  ctx.addIssue({ code: 'custom', message: pictureMessages.badType, params: NAMED_ISSUE });
  return z.NEVER;
});

const wholeFrom0 = (message: string) =>
  z.number({ error: message }).int({ error: message }).min(0, { error: message }).max(1_000_000_000, { error: message });

export const pageInput = z.object({ type: pageTypeSchema, index: wholeFrom0(pictureMessages.badIndex) });
export type PageInput = z.input<typeof pageInput>;
export const pictureAtInput = pageInput.extend({ pic: wholeFrom0(pictureMessages.badPic) });

/** A capture date: year 0 means unknown altogether; month 0 and day 0 mean unknown ('xx'). */
export type CaptureDate = { year: number; month: number; day: number };

const pad = (n: number) => String(n).padStart(2, '0');

/** The wire form: '2024-07-15', '2024-07-xx', '2024-xx-xx'; '' when nothing is known. */
export function formatCaptureDate(d: CaptureDate): string {
  if (d.year === 0) return '';
  return `${d.year}-${d.month === 0 ? 'xx' : pad(d.month)}-${d.day === 0 ? 'xx' : pad(d.day)}`;
}

/** 'Taken on: ...' wording: 'July 15, 2024', 'July 2024', '2024'. */
export function describeCaptureDate(d: CaptureDate): string | null {
  if (d.year === 0) return null;
  if (d.month === 0) return String(d.year);
  const month = MONTH_NAMES[d.month - 1];
  return d.day === 0 ? `${month} ${d.year}` : `${month} ${d.day}, ${d.year}`;
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * Reads a date as the form sends it: 'YYYY', 'YYYY-MM', 'YYYY-MM-DD', with 'xx' or nothing for an
 * unknown month or day ('2024-xx-xx', '2024--', '2024-07-'). Blank is null (the server then reads
 * the photo's own EXIF date). Anything else, or a day that does not exist, is refused (undefined).
 */
export function parseCaptureDate(value: string): CaptureDate | null | undefined {
  const s = value.trim();
  if (s === '') return null;
  const m = /^(\d{4})(?:-(\d{1,2}|xx|XX)?(?:-(\d{1,2}|xx|XX)?)?)?$/.exec(s);
  if (!m) return undefined;
  const year = Number(m[1]);
  const unknown = (part: string | undefined) => part === undefined || part.toLowerCase() === 'xx';
  const month = unknown(m[2]) ? 0 : Number(m[2]);
  const day = unknown(m[3]) ? 0 : Number(m[3]);
  if (year < 1800 || year > 2200) return undefined;
  if (month > 12 || (m[2] !== undefined && !unknown(m[2]) && month < 1)) return undefined;
  if (day !== 0 && (month === 0 || day < 1 || day > daysIn(year, month))) return undefined;
  if (m[3] !== undefined && !unknown(m[3]) && day === 0) return undefined;
  return { year, month, day };
}

/** A date field of a form or call: blank means unknown, otherwise as parseCaptureDate reads it. */
export const captureDateSchema = z.string({ error: pictureMessages.badDate }).max(20, { error: pictureMessages.badDate }).transform((v, ctx) => {
  const parsed = parseCaptureDate(v);
  if (parsed === undefined) {
    ctx.addIssue({ code: 'custom', message: pictureMessages.badDate, params: NAMED_ISSUE });
    return z.NEVER;
  }
  return parsed ?? { year: 0, month: 0, day: 0 };
});

export const captionSchema = text({ label: 'Caption', max: CAPTION_MAX, trim: true });

/** One picture as the gallery shows it. `desc`, `fileType`, `target`, `uploaded` are the spec's fields. */
export type Picture = {
  id: number;
  desc: string;
  fileType: string;
  target: string;
  /** The capture date, 'YYYY-MM-DD' with 'xx' for an unknown month or day; '' when unknown. */
  uploaded: string;
  kind: MediaKind;
  /** Waiting for an admin's approval: only its uploader and admins see it. */
  pending: boolean;
  /** Derived files: 'pending' until the background work made them, 'none' when none can be made. */
  thumb: 'pending' | 'ready' | 'none';
  /** Width and height of the thumbnail (for the grid's reserved box); null until known. */
  thumbWidth: number | null;
  thumbHeight: number | null;
  /** A display-size WebP exists (large images); the viewer shows it instead of the original. */
  display: boolean;
  /** A poster frame exists (videos). */
  poster: boolean;
  /** No preview could be made because the server lacks this program ('ffmpeg'); null otherwise. */
  previewNeeds: string | null;
  /** Declares more pixels than the server decodes: no preview; the original downloads. */
  previewTooLarge: boolean;
  uploader: string | null;
};

/** The upload's answer: the stored picture; for bytes already stored, that picture and `duplicate`. */
export type UploadAnswer = Picture & { message: string; duplicate: boolean; link: string };
/** Bytes already waiting for approval, uploaded by another member: neither the picture nor a link. */
export type UploadWaiting = { duplicate: true; pending: true; message: string; link: null };
export type UploadReply = UploadAnswer | UploadWaiting;

/** Where a picture is seen in the gallery: its month's page, opened on it. */
export function pictureLink(monthPage: number, id: number): string {
  return `${galleryPathOf('month', monthPage)}?picture=${id}`;
}

export const galleryPathOf = (type: PageType, index: number) => `/personal/pictures/${type}/${index}`;

export type PageInfo = { pageLength: number; pageCount: number; label: string };
export type PicturePage = PageInfo & { index: number; type: PageType; pictures: Picture[]; total: number };

export const pictureIdInput = z.object({ id: z.number().int().min(1).max(MAX_ROW_ID) });
export const updatePictureInput = pictureIdInput.extend({ caption: captionSchema, date: captureDateSchema });

/** `guest`: the name a guest gave on an upload link (no account); null for a member's upload. */
export type PendingPicture = Picture & { uploadedAt: string; guest: string | null };

/** The start-up check that this instance's MEDIA_DIR holds every original the database names. */
export type MediaCheck = { checkedAt: string; checked: number; missing: number; examples: string[]; mediaDir: string };
/** Where the media are kept (the local folder or the bucket) and whether it answers now: the Admin page's card. */
export type MediaStoreState = { description: string; ok: boolean; reason: string | null; checkedAt: string };

/** The URL of a picture's file or one of its derived files. */
export function mediaUrl(target: string, variant?: 'thumb' | 'display' | 'poster'): string {
  if (!variant) return `/private/pictures/${encodeURIComponent(target)}`;
  const stem = target.replace(/\.[^.]+$/, '');
  return `/private/pictures/${encodeURIComponent(`${stem}.${variant}.webp`)}`;
}
