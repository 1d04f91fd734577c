import type { CaptureDate } from './pictures.schemas.ts';

/**
 * A photo's or video's own capture date, read the same way by the upload page (its suggestion) and
 * the server (its fallback when the form sends no date), so the two agree on every file. Pure: the
 * caller hands over a way to read bytes and its EXIF reader (exifr, called with EXIF_DATE_OPTIONS).
 *
 * Order: EXIF DateTimeOriginal, then CreateDate (DateTimeDigitized) when that is blank; then XMP
 * (exif:DateTimeOriginal, photoshop:DateCreated, xmp:CreateDate) in any file that carries a packet
 * (JPEG, PNG, TIFF, HEIC, PSD); then QuickTime/MP4 (MOV, MP4, M4V, 3GP):
 * com.apple.quicktime.creationdate as written (the local date, its zone kept), else the movie
 * header's creation time, which is UTC.
 */

/** Random access to a file: a browser File's slices, or a file handle on the server. */
export type ByteSource = { size: number; read(offset: number, length: number): Promise<Uint8Array> };

/** exifr's options for the two EXIF date tags, raw strings (no Date objects and no time zone guess). */
export const EXIF_DATE_OPTIONS = { pick: ['DateTimeOriginal', 'CreateDate'], reviveValues: false } as const;

export type CaptureDateSource = 'exif' | 'xmp' | 'quicktime';
export type FoundCaptureDate = { date: CaptureDate; from: CaptureDateSource };

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Year, month, day as a capture date, or null when they are not a real date the gallery keeps. */
function dateOf(year: number, month: number, day: number): CaptureDate | null {
  if (!(year >= 1800 && year <= 2200)) return null;
  if (month === 0) return day === 0 ? { year, month: 0, day: 0 } : null;
  if (month < 1 || month > 12) return null;
  if (day !== 0 && (day < 1 || day > daysIn(year, month))) return null;
  return { year, month, day };
}

/**
 * A date as metadata writes it: EXIF's '2021:07:15 10:20:30', ISO 8601 '2021-07-15T10:20:30+02:00'
 * (or only '2021-07', '2021'). The date as written, in the zone it was written in. Blank or zeroed
 * values ('    :  :     ', '0000:00:00 00:00:00') are null.
 */
export function parseMetadataDate(value: unknown): CaptureDate | null {
  if (typeof value !== 'string') return null;
  const m = /^\s*(\d{4})(?:[:-](\d{2})(?:[:-](\d{2}))?)?(?:$|[T\s])/.exec(value);
  if (!m) return null;
  return dateOf(Number(m[1]), m[2] ? Number(m[2]) : 0, m[3] ? Number(m[3]) : 0);
}

/** EXIF: DateTimeOriginal, else CreateDate when it is blank or unreadable. */
export function exifCaptureDate(tags: unknown): CaptureDate | null {
  if (!tags || typeof tags !== 'object') return null;
  const t = tags as { DateTimeOriginal?: unknown; CreateDate?: unknown };
  return parseMetadataDate(t.DateTimeOriginal) ?? parseMetadataDate(t.CreateDate);
}

const XMP_PROPERTIES = [
  ['exif', 'DateTimeOriginal'],
  ['photoshop', 'DateCreated'],
  ['xmp', 'CreateDate'],
  ['xap', 'CreateDate'], // the old prefix of the same namespace
] as const;

/** The first date of the XMP packet text, as attribute (exif:DateTimeOriginal="…") or element. */
export function xmpCaptureDate(xmp: string): CaptureDate | null {
  for (const [prefix, name] of XMP_PROPERTIES) {
    const property = `${prefix}:${name}`;
    const attribute = new RegExp(`\\s${property}\\s*=\\s*["']([^"']*)["']`).exec(xmp);
    const element = new RegExp(`<${property}(?:\\s[^>]*)?>\\s*([^<]*?)\\s*</${property}>`).exec(xmp);
    const date = parseMetadataDate(attribute?.[1]) ?? parseMetadataDate(element?.[1]);
    if (date) return date;
  }
  return null;
}

/** How much of a file is searched for an XMP packet: its start and its end (PNG and TIFF may put it last). */
const XMP_HEAD_BYTES = 8 * 1024 * 1024;
const XMP_TAIL_BYTES = 1024 * 1024;

const latin1 = (bytes: Uint8Array) => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
};

/** Where the ASCII text `needle` next occurs in `bytes` from `from`, or -1. */
function indexOfAscii(bytes: Uint8Array, needle: string, from: number): number {
  const first = needle.charCodeAt(0);
  for (let at = bytes.indexOf(first, from); at >= 0 && at + needle.length <= bytes.length; at = bytes.indexOf(first, at + 1)) {
    let j = 1;
    while (j < needle.length && bytes[at + j] === needle.charCodeAt(j)) j++;
    if (j === needle.length) return at;
  }
  return -1;
}

/** The bytes a regular expression's \s matches when the bytes are read as Latin-1. */
const SPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0]);

/**
 * The XMP packets (`<x:xmpmeta …</x:xmpmeta>`, each up to the first closing tag) in `bytes`, as
 * text. Searched as bytes: only the packets become strings, not the megabytes of pixels around them
 * (a string of the whole 8 MB head, for every upload without a date, was most of what an upload
 * left in the server's memory).
 */
function* xmpPackets(bytes: Uint8Array): Generator<string> {
  const open = '<x:xmpmeta';
  const close = '</x:xmpmeta>';
  for (let at = 0; ; ) {
    const start = indexOfAscii(bytes, open, at);
    if (start < 0) return;
    const next = bytes[start + open.length];
    if (next === undefined) return;
    if (next !== 0x3e && !SPACE.has(next)) {
      at = start + 1;
      continue;
    }
    const end = indexOfAscii(bytes, close, start + open.length + 1);
    if (end < 0) return;
    yield latin1(bytes.subarray(start, end + close.length));
    at = end + close.length;
  }
}

/** Finds XMP packets (`<x:xmpmeta …</x:xmpmeta>`) in the file's head and tail and reads their date. */
export async function findXmpDate(source: ByteSource): Promise<CaptureDate | null> {
  const parts = [await source.read(0, Math.min(source.size, XMP_HEAD_BYTES))];
  if (source.size > XMP_HEAD_BYTES) {
    const from = Math.max(XMP_HEAD_BYTES, source.size - XMP_TAIL_BYTES);
    parts.push(await source.read(from, source.size - from));
  }
  for (const bytes of parts) {
    for (const packet of xmpPackets(bytes)) {
      // The packet is UTF-8; dates are ASCII, so reading it as Latin-1 loses nothing that matters.
      const date = xmpCaptureDate(packet);
      if (date) return date;
    }
  }
  return null;
}

// ---- QuickTime / ISO base media (MOV, MP4, M4V, 3GP) ----

type Box = { type: string; start: number; header: number; size: number };

const ascii = (bytes: Uint8Array, from: number, length: number) => String.fromCharCode(...bytes.subarray(from, from + length));

/** The boxes in `bytes` from `from` to `to` (a box that claims more than is there ends the list). */
function boxesIn(bytes: Uint8Array, from: number, to: number): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < header || at + size > to) break;
    boxes.push({ type: ascii(bytes, at + 4, 4), start: at, header, size });
    at += size;
  }
  return boxes;
}

const child = (bytes: Uint8Array, parent: Box, type: string, skip = 0) =>
  boxesIn(bytes, parent.start + parent.header + skip, parent.start + parent.size).find((b) => b.type === type);

/** Finds the top-level moov box by reading box headers only; null when the file is not ISO media. */
async function readMoov(source: ByteSource): Promise<Uint8Array | null> {
  const first = await source.read(0, Math.min(source.size, 16));
  if (first.length < 12 || !['ftyp', 'moov', 'wide', 'mdat', 'free', 'skip'].includes(ascii(first, 4, 4))) return null;
  let at = 0;
  for (let boxes = 0; at + 8 <= source.size && boxes < 10_000; boxes++) {
    const header = await source.read(at, Math.min(16, source.size - at));
    const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
    let size = view.getUint32(0);
    let headerSize = 8;
    if (size === 1 && header.length >= 16) {
      size = Number(view.getBigUint64(8));
      headerSize = 16;
    } else if (size === 0) {
      size = source.size - at;
    }
    if (size < headerSize) return null;
    if (ascii(header, 4, 4) === 'moov') {
      // A moov box holds the index of every frame: tens of MB at most, even for long videos.
      if (size > 256 * 1024 * 1024) return null;
      return source.read(at, Math.min(size, source.size - at));
    }
    at += size;
  }
  return null;
}

/** Apple's keyed metadata (meta > keys + ilst): the value of `key`, as text. */
function keyedValue(bytes: Uint8Array, meta: Box, key: string): string | null {
  // QuickTime's meta box has no version and flags; ISO's (and some writers' under moov) has.
  const skip = child(bytes, meta, 'hdlr') ? 0 : 4;
  const keys = child(bytes, meta, 'keys', skip);
  const ilst = child(bytes, meta, 'ilst', skip);
  if (!keys || !ilst) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(keys.start + keys.header + 4);
  let at = keys.start + keys.header + 8;
  let index = 0;
  for (let i = 1; i <= count && at + 8 <= keys.start + keys.size; i++) {
    const size = view.getUint32(at);
    if (size < 8) break;
    if (ascii(bytes, at + 8, size - 8) === key) index = i;
    at += size;
  }
  if (index === 0) return null;
  for (const item of boxesIn(bytes, ilst.start + ilst.header, ilst.start + ilst.size)) {
    if (view.getUint32(item.start + 4) !== index) continue;
    const data = child(bytes, item, 'data');
    if (!data) return null;
    const from = data.start + data.header + 8; // type indicator and locale
    return new TextDecoder().decode(bytes.subarray(from, data.start + data.size));
  }
  return null;
}

/** The user-data text atom ©day ('2021-07-15T10:20:30+0200'), as QuickTime or iTunes-style metadata writes it. */
function userDataDay(bytes: Uint8Array, moov: Box): string | null {
  const udta = child(bytes, moov, 'udta');
  if (!udta) return null;
  const day = child(bytes, udta, '\u00a9day');
  if (day) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const length = view.getUint16(day.start + day.header);
    const from = day.start + day.header + 4;
    if (length > 0 && from + length <= day.start + day.size) return new TextDecoder().decode(bytes.subarray(from, from + length));
  }
  const meta = child(bytes, udta, 'meta');
  const ilst = meta && child(bytes, meta, 'ilst', 4);
  const item = ilst && child(bytes, ilst, '\u00a9day');
  const data = item && child(bytes, item, 'data');
  return data ? new TextDecoder().decode(bytes.subarray(data.start + data.header + 8, data.start + data.size)) : null;
}

/** Seconds from 1904-01-01 (QuickTime's epoch) to 1970-01-01. */
const QUICKTIME_EPOCH_OFFSET = 2_082_844_800;

/** The movie header's creation time (UTC); 0 and times before 1971 mean "not set". */
function movieHeaderDate(bytes: Uint8Array, moov: Box): CaptureDate | null {
  const mvhd = child(bytes, moov, 'mvhd');
  if (!mvhd) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const body = mvhd.start + mvhd.header;
  const version = view.getUint8(body);
  const seconds = version === 1 ? Number(view.getBigUint64(body + 4)) : view.getUint32(body + 4);
  const unix = seconds - QUICKTIME_EPOCH_OFFSET;
  if (unix < 365 * 24 * 3600) return null;
  const d = new Date(unix * 1000);
  return dateOf(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

/** A QuickTime/MP4 file's capture date: Apple's creationdate (local, as written), ©day, then the movie header (UTC). */
export async function quickTimeCaptureDate(source: ByteSource): Promise<CaptureDate | null> {
  const bytes = await readMoov(source);
  if (!bytes) return null;
  const moov = boxesIn(bytes, 0, bytes.length)[0];
  if (!moov || moov.type !== 'moov') return null;
  const apple = 'com.apple.quicktime.creationdate';
  const meta = child(bytes, moov, 'meta');
  const udta = child(bytes, moov, 'udta');
  const udtaMeta = udta && child(bytes, udta, 'meta');
  const keyed = (meta && keyedValue(bytes, meta, apple)) ?? (udtaMeta && keyedValue(bytes, udtaMeta, apple));
  return parseMetadataDate(keyed) ?? parseMetadataDate(userDataDay(bytes, moov)) ?? movieHeaderDate(bytes, moov);
}

// ---- HEIF's Exif item, for files whose item locations exifr misreads ----

function readUint(view: DataView, at: number, size: number): number {
  if (size === 0) return 0;
  if (size === 2) return view.getUint16(at);
  if (size === 4) return view.getUint32(at);
  if (size === 8) return Number(view.getBigUint64(at));
  throw new Error(`no ${size}-byte integers in iloc`);
}

/** The TIFF bytes of a HEIF file's Exif item (found through meta > iinf and iloc), or null. */
export async function heifExifTiff(source: ByteSource): Promise<Uint8Array | null> {
  const head = await source.read(0, Math.min(source.size, 16));
  if (head.length < 12 || ascii(head, 4, 4) !== 'ftyp') return null;
  let at = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(0);
  let metaBytes: Uint8Array | null = null;
  for (let boxes = 0; at + 8 <= source.size && boxes < 64; boxes++) {
    const header = await source.read(at, 8);
    const size = new DataView(header.buffer, header.byteOffset, header.byteLength).getUint32(0);
    if (ascii(header, 4, 4) === 'meta') {
      if (size < 12 || size > 16 * 1024 * 1024) return null;
      metaBytes = await source.read(at, size);
      break;
    }
    if (size < 8) return null;
    at += size;
  }
  if (!metaBytes) return null;
  const metaStart = at;
  const bytes = metaBytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const meta = boxesIn(bytes, 0, bytes.length)[0];
  const iinf = meta && child(bytes, meta, 'iinf', 4);
  const iloc = meta && child(bytes, meta, 'iloc', 4);
  if (!meta || !iinf || !iloc) return null;

  // iinf: which item is 'Exif'.
  const iinfBody = iinf.start + iinf.header;
  const iinfVersion = view.getUint8(iinfBody);
  const entriesAt = iinfBody + 4 + (iinfVersion === 0 ? 2 : 4);
  let exifId = -1;
  for (const infe of boxesIn(bytes, entriesAt, iinf.start + iinf.size)) {
    const body = infe.start + infe.header;
    const version = view.getUint8(body);
    if (infe.type !== 'infe' || version < 2) continue;
    const idSize = version === 3 ? 4 : 2;
    if (ascii(bytes, body + 4 + idSize + 2, 4) === 'Exif') exifId = readUint(view, body + 4, idSize);
  }
  if (exifId < 0) return null;

  // iloc: where that item's bytes are.
  let p = iloc.start + iloc.header;
  const version = view.getUint8(p);
  p += 4;
  const offsetSize = view.getUint8(p) >> 4;
  const lengthSize = view.getUint8(p) & 15;
  const baseOffsetSize = view.getUint8(p + 1) >> 4;
  const indexSize = version === 1 || version === 2 ? view.getUint8(p + 1) & 15 : 0;
  p += 2;
  const count = readUint(view, p, version < 2 ? 2 : 4);
  p += version < 2 ? 2 : 4;
  for (let i = 0; i < count; i++) {
    const id = readUint(view, p, version < 2 ? 2 : 4);
    p += version < 2 ? 2 : 4;
    const method = version === 1 || version === 2 ? view.getUint16(p) & 15 : 0;
    if (version === 1 || version === 2) p += 2;
    p += 2; // data reference index
    const base = readUint(view, p, baseOffsetSize);
    p += baseOffsetSize;
    const extents = view.getUint16(p);
    p += 2;
    let first: [number, number] | null = null;
    for (let e = 0; e < extents; e++) {
      p += indexSize;
      const offset = readUint(view, p, offsetSize);
      const length = readUint(view, p + offsetSize, lengthSize);
      p += offsetSize + lengthSize;
      first ??= [offset, length];
    }
    if (id !== exifId || !first || method > 1) continue;
    let start = base + first[0];
    if (method === 1) {
      const idat = child(bytes, meta, 'idat', 4);
      if (!idat) return null;
      start += metaStart + idat.start + idat.header;
    }
    const length = first[1] || source.size - start;
    if (length < 8 || length > 1024 * 1024) return null;
    const item = await source.read(start, length);
    // The item starts with the offset of the TIFF header after its own 4 bytes ('Exif\0\0' may sit between).
    const shift = 4 + new DataView(item.buffer, item.byteOffset, item.byteLength).getUint32(0);
    return shift < item.length ? item.subarray(shift) : null;
  }
  return null;
}

/** The TIFF bytes of a WebP file's EXIF chunk (RIFF; exifr does not read WebP), or null. */
export async function webpExifTiff(source: ByteSource): Promise<Uint8Array | null> {
  const head = await source.read(0, Math.min(source.size, 12));
  if (head.length < 12 || ascii(head, 0, 4) !== 'RIFF' || ascii(head, 8, 4) !== 'WEBP') return null;
  for (let at = 12, chunks = 0; at + 8 <= source.size && chunks < 1000; chunks++) {
    const header = await source.read(at, 8);
    const size = new DataView(header.buffer, header.byteOffset, header.byteLength).getUint32(4, true);
    if (ascii(header, 0, 4) === 'EXIF') {
      if (size > 1024 * 1024) return null;
      const data = await source.read(at + 8, size);
      // Some writers keep JPEG's 'Exif\0\0' before the TIFF header.
      return ascii(data, 0, 4) === 'Exif' ? data.subarray(6) : data;
    }
    at += 8 + size + (size % 2);
  }
  return null;
}

/** Reads EXIF tags with exifr (EXIF_DATE_OPTIONS): of the whole file, or of the TIFF bytes given. */
export type ExifReader = (tiff?: Uint8Array) => Promise<unknown>;

/** The capture date a file carries, and where it was found; null when it has none. */
export async function readCaptureDate(source: ByteSource, readExif: ExifReader): Promise<FoundCaptureDate | null> {
  const attempts: [CaptureDateSource, () => Promise<CaptureDate | null>][] = [
    ['exif', async () => exifCaptureDate(await readExif().catch(() => null))],
    [
      'exif',
      async () => {
        // Containers whose EXIF exifr misses or cannot read: HEIF with some item layouts, WebP.
        const tiff = (await heifExifTiff(source)) ?? (await webpExifTiff(source));
        return tiff ? exifCaptureDate(await readExif(tiff)) : null;
      },
    ],
    ['xmp', () => findXmpDate(source)],
    ['quicktime', () => quickTimeCaptureDate(source)],
  ];
  for (const [from, attempt] of attempts) {
    // A damaged file may make one reader throw; the next may still find a date.
    const date = await attempt().catch(() => null);
    if (date) return { date, from };
  }
  return null;
}
