import fsp from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/**
 * Where a picture or video was taken, removed from the copy a guest downloads. The original stays as
 * it was (members download it byte for byte); a guest's copy is the original with the bytes that say
 * where replaced in place, so it has the same length, every other byte (pixels, dates, camera) is the
 * original's, and HTTP ranges of it are ranges of the original:
 * - EXIF (JPEG's APP1, HEIF's Exif item, PNG's eXIf, WebP's EXIF, TIFF and the TIFF-based raw files):
 *   the GPS directory is emptied (no entries) and the values it pointed to zeroed;
 * - XMP (any file): `…:GPS…` properties are blanked with spaces, which leaves the XML well-formed;
 * - MP4/QuickTime: the `©xyz` box and the 3GPP `loci` box (ffmpeg's mp4 writer, some phones) become
 *   `free` boxes, and ISO 6709 positions (`+51.5074-000.1278/`, Apple's location key) are blanked;
 * - Matroska/WebM: the ISO 6709 position of a `LOCATION` tag is blanked with spaces.
 * A PNG chunk whose bytes changed gets its CRC written again.
 */
export type Patch = { offset: number; bytes: Buffer };

const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');
const XMP_START = Buffer.from('<x:xmpmeta', 'latin1');
const XMP_END = Buffer.from('</x:xmpmeta>', 'latin1');
const XYZ_BOX = Buffer.from('\u00a9xyz', 'latin1');
const LOCI_BOX = Buffer.from('loci', 'latin1');
const MATROSKA_LOCATION = Buffer.from('LOCATION', 'latin1');
const FREE = Buffer.from('free', 'latin1');
const PNG_EXIF = Buffer.from('eXIf', 'latin1');
const WEBP_EXIF = Buffer.from('EXIF', 'latin1');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The largest metadata block read whole (an XMP packet, a PNG chunk, a video's text). */
const MAX_BLOCK = 4 * 1024 * 1024;
const SCAN_CHUNK = 1024 * 1024;
/** Bytes per value of each TIFF field type (1 BYTE ... 12 DOUBLE, 13 IFD). */
const TYPE_SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4];
const GPS_POINTER_TAG = 0x8825;
/** `[+-]DD.DDDD[+-]DDD.DDDD[+-AAA.AAA][CRS…]/`: a position as ISO 6709 writes it (QuickTime and MP4 metadata). */
const ISO_6709 = /[+-]\d{2}(?:\.\d+)?[+-]\d{3}(?:\.\d+)?(?:[+-]\d+(?:\.\d+)?)?(?:CRS[A-Za-z0-9_:.-]*)?\//g;
const XMP_GPS_ATTRIBUTE = /\s[A-Za-z][\w-]*:GPS\w*\s*=\s*("[^"]*"|'[^']*')/g;
const XMP_GPS_ELEMENT = /<([A-Za-z][\w-]*:GPS\w*)(?:\s[^>]*)?>[\s\S]*?<\/\1>|<[A-Za-z][\w-]*:GPS\w*(?:\s[^>]*)?\/>/g;

type Reader = { size: number; read(offset: number, length: number): Promise<Buffer> };

async function openReader(file: string): Promise<{ reader: Reader; close(): Promise<void> }> {
  const handle = await fsp.open(file);
  const { size } = await handle.stat();
  return {
    reader: {
      size,
      async read(offset, length) {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
        if (buffer.length === 0) return buffer;
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
        return buffer.subarray(0, bytesRead);
      },
    },
    close: () => handle.close(),
  };
}

/** Every offset where each needle starts (the map is keyed by the needles themselves) in the file (read in chunks that overlap by the needle's length). */
async function findAll(reader: Reader, needles: readonly Buffer[]): Promise<Map<Buffer, number[]>> {
  const found = new Map<Buffer, number[]>(needles.map((n) => [n, []]));
  const overlap = Math.max(...needles.map((n) => n.length)) - 1;
  for (let at = 0; at < reader.size; at += SCAN_CHUNK) {
    const chunk = await reader.read(at, SCAN_CHUNK + overlap);
    for (const needle of needles) {
      const list = found.get(needle) ?? [];
      for (let i = chunk.indexOf(needle); i >= 0 && i < SCAN_CHUNK; i = chunk.indexOf(needle, i + 1)) list.push(at + i);
    }
  }
  return found;
}

/** The patches that empty the GPS directory of the TIFF structure starting at `base` (an EXIF block or a TIFF file). */
async function tiffGpsPatches(reader: Reader, base: number, end = reader.size): Promise<Patch[]> {
  const head = await reader.read(base, 8);
  if (head.length < 8) return [];
  const order = head.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return [];
  const le = order === 'II';
  const u16 = (b: Buffer, at: number) => (le ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (b: Buffer, at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const within = (offset: number, length: number) => offset >= 8 && base + offset + length <= end;
  const ifd0 = u32(head, 4);
  if (!within(ifd0, 2)) return [];
  const count0 = u16(await reader.read(base + ifd0, 2), 0);
  if (count0 === 0 || count0 > 1000 || !within(ifd0, 2 + 12 * count0)) return [];
  const entries0 = await reader.read(base + ifd0 + 2, 12 * count0);
  let gps = -1;
  for (let i = 0; i < count0; i++) if (u16(entries0, i * 12) === GPS_POINTER_TAG) gps = u32(entries0, i * 12 + 8);
  if (gps < 0 || !within(gps, 2)) return [];
  const count = u16(await reader.read(base + gps, 2), 0);
  if (count > 1000 || !within(gps, 2 + 12 * count + 4)) return [];
  const entries = await reader.read(base + gps + 2, 12 * count);
  const patches: Patch[] = [];
  for (let i = 0; i < count; i++) {
    const type = u16(entries, i * 12 + 2);
    const bytes = (TYPE_SIZE[type] ?? 0) * u32(entries, i * 12 + 4);
    const valueAt = u32(entries, i * 12 + 8);
    // Values of more than four bytes live elsewhere in the block: zero them too.
    if (bytes > 4 && within(valueAt, bytes)) patches.push({ offset: base + valueAt, bytes: Buffer.alloc(bytes) });
  }
  // No entries, and no next directory: an empty GPS directory.
  patches.push({ offset: base + gps, bytes: Buffer.alloc(2 + 12 * count + 4) });
  return patches;
}

/** A patch that writes `text` with `pattern`'s matches turned to spaces, when any matched. */
function blank(offset: number, text: string, patterns: readonly RegExp[]): Patch[] {
  let out = text;
  for (const pattern of patterns) out = out.replace(pattern, (match) => ' '.repeat(match.length));
  return out === text ? [] : [{ offset, bytes: Buffer.from(out, 'latin1') }];
}

async function xmpPatches(reader: Reader, starts: readonly number[]): Promise<Patch[]> {
  const patches: Patch[] = [];
  for (const start of starts) {
    const block = await reader.read(start, MAX_BLOCK);
    const end = block.indexOf(XMP_END);
    if (end < 0) continue;
    // latin1 keeps one character per byte, so the blanked text has the original's length and offsets.
    patches.push(...blank(start, block.toString('latin1', 0, end), [XMP_GPS_ATTRIBUTE, XMP_GPS_ELEMENT]));
  }
  return patches;
}

async function videoPatches(reader: Reader, boxes: readonly number[]): Promise<Patch[]> {
  const patches: Patch[] = [];
  for (const at of boxes) {
    // The box's type follows its 4-byte size: a free box is skipped by every reader.
    if (at < 4) continue;
    const size = (await reader.read(at - 4, 4)).readUInt32BE(0);
    if (size < 8 || size > MAX_BLOCK) continue;
    patches.push({ offset: at, bytes: FREE });
  }
  return patches;
}

/**
 * ISO 6709 positions anywhere in a video's metadata (the `moov` box, read whole when it is not too
 * large), and its 3GPP `loci` boxes (a binary position) renamed `free`: only inside `moov`, where
 * the bytes are boxes, never in the media data.
 */
async function moovPatches(reader: Reader): Promise<Patch[]> {
  const patches: Patch[] = [];
  for (let at = 0; at + 8 <= reader.size; ) {
    const head = await reader.read(at, 16);
    let size = head.readUInt32BE(0);
    if (size === 1 && head.length >= 16) size = Number(head.readBigUInt64BE(8));
    else if (size === 0) size = reader.size - at;
    if (size < 8) break;
    if (head.toString('latin1', 4, 8) === 'moov' && size <= 64 * MAX_BLOCK) {
      const moov = await reader.read(at, size);
      patches.push(...blank(at, moov.toString('latin1'), [ISO_6709]));
      for (let i = moov.indexOf(LOCI_BOX, 12); i >= 0; i = moov.indexOf(LOCI_BOX, i + 4)) {
        const boxSize = moov.readUInt32BE(i - 4);
        if (boxSize >= 8 && i - 4 + boxSize <= moov.length) patches.push({ offset: at + i, bytes: FREE });
      }
    }
    at += size;
  }
  return patches;
}

/** A Matroska/WebM `LOCATION` tag's value (its TagString follows the name within a few bytes): the ISO 6709 position blanked. */
async function matroskaPatches(reader: Reader, names: readonly number[]): Promise<Patch[]> {
  const patches: Patch[] = [];
  for (const at of names) patches.push(...blank(at, (await reader.read(at, 256)).toString('latin1'), [ISO_6709]));
  return patches;
}

/** A PNG's chunks whose bytes the patches change get their CRC written again. */
async function pngCrcPatches(reader: Reader, patches: readonly Patch[]): Promise<Patch[]> {
  const fixes: Patch[] = [];
  for (let at = 8; at + 12 <= reader.size; ) {
    const length = (await reader.read(at, 4)).readUInt32BE(0);
    const end = at + 8 + length;
    const touched = patches.filter((p) => p.offset < end && p.offset + p.bytes.length > at + 4);
    if (touched.length > 0 && length <= MAX_BLOCK) {
      const chunk = await reader.read(at + 4, 4 + length);
      for (const p of touched) p.bytes.copy(chunk, Math.max(0, p.offset - (at + 4)), Math.max(0, at + 4 - p.offset));
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(chunk) >>> 0, 0);
      fixes.push({ offset: end, bytes: crc });
    }
    at = end + 4;
  }
  return fixes;
}

const VIDEO_TYPES = new Set(['mp4', 'm4v', 'mov', '3gp', '3g2']);
const MATROSKA_TYPES = new Set(['mkv', 'webm']);

/**
 * The patches that remove the position from the file at `file` (empty when it holds none). Reads its
 * metadata where it is: the whole file is scanned once for the blocks that may hold a position.
 */
export async function locationPatches(file: string, fileType: string): Promise<Patch[]> {
  const { reader, close } = await openReader(file);
  try {
    const patches: Patch[] = [];
    const first = await reader.read(0, 16);
    // TIFF and the raw formats built on it (DNG, CR2, NEF, ARW, ORF, RW2): the file is the TIFF structure.
    if (/^(II|MM)/.test(first.toString('latin1', 0, 2))) patches.push(...(await tiffGpsPatches(reader, 0)));
    const found = await findAll(reader, [EXIF_HEADER, XMP_START, XYZ_BOX, PNG_EXIF, WEBP_EXIF, MATROSKA_LOCATION]);
    for (const at of found.get(EXIF_HEADER) ?? []) patches.push(...(await tiffGpsPatches(reader, at + EXIF_HEADER.length)));
    // PNG's eXIf and WebP's EXIF chunk may hold the TIFF structure without the Exif header.
    const isPng = first.subarray(0, 8).equals(PNG_SIGNATURE);
    const isWebp = first.toString('latin1', 0, 4) === 'RIFF' && first.toString('latin1', 8, 12) === 'WEBP';
    if (isPng) for (const at of found.get(PNG_EXIF) ?? []) patches.push(...(await tiffGpsPatches(reader, at + 4)));
    if (isWebp) for (const at of found.get(WEBP_EXIF) ?? []) patches.push(...(await tiffGpsPatches(reader, at + 8)));
    patches.push(...(await xmpPatches(reader, found.get(XMP_START) ?? [])));
    if (VIDEO_TYPES.has(fileType)) {
      patches.push(...(await moovPatches(reader)));
      patches.push(...(await videoPatches(reader, found.get(XYZ_BOX) ?? [])));
    }
    if (MATROSKA_TYPES.has(fileType)) patches.push(...(await matroskaPatches(reader, found.get(MATROSKA_LOCATION) ?? [])));
    if (isPng && patches.length > 0) patches.push(...(await pngCrcPatches(reader, patches)));
    return patches.sort((a, b) => a.offset - b.offset);
  } finally {
    await close();
  }
}

/** `source`, the bytes of the file from `start` on, with `patches` (offsets in the whole file) written over them. */
export function patchStream(source: Readable, patches: readonly Patch[], start = 0): Readable {
  let position = start;
  const patcher = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const from = position;
      const to = from + chunk.length;
      position = to;
      let out = chunk;
      for (const p of patches) {
        const end = p.offset + p.bytes.length;
        if (end <= from || p.offset >= to) continue;
        if (out === chunk) out = Buffer.from(chunk);
        const at = Math.max(p.offset, from);
        p.bytes.copy(out, at - from, at - p.offset, Math.min(end, to) - p.offset);
      }
      done(null, out);
    },
  });
  source.on('error', (error) => patcher.destroy(error));
  return source.pipe(patcher);
}

/** Patches found lately, by the original's media key (an original never changes under its name): a guest's album asks for each file often. */
const known = new Map<string, Promise<Patch[]>>();
const KNOWN_MAX = 256;

/**
 * What a guest's download of an original sends instead of its position: the media store's `rewrite`
 * (SendOptions), or nothing when the file holds no position. `key` names the original; `withFile`
 * lends a path holding it (MediaStorage.withLocalFile), read only when the key is not known yet.
 */
export async function withoutLocation(
  key: string,
  fileType: string,
  withFile: (use: (file: string) => Promise<Patch[]>) => Promise<Patch[]>,
): Promise<{ tag: string; transform(body: Readable, start: number): Readable } | undefined> {
  let patches = known.get(key);
  if (!patches) {
    // A missing original has nothing to hide: the store answers 404 for it.
    patches = withFile((file) => locationPatches(file, fileType)).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    });
    // A failure is not remembered: the next request reads the file again.
    patches.catch(() => known.delete(key));
    if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value ?? '');
    known.set(key, patches);
  }
  const found = await patches;
  if (found.length === 0) return undefined;
  return { tag: 'nolocation', transform: (body, start) => patchStream(body, found, start) };
}
