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
 *
 * Who took it, with which camera, and what they wrote in it goes too, always (`personalPatches`): the
 * EXIF fields that name a person or a camera (Artist, Copyright, the owner's name, the camera's, the
 * body's and the lens's serial numbers) and the comments (ImageDescription, UserComment, XPComment,
 * XPAuthor) are taken out of their directories (the directory is written again without them, in
 * place, and their values zeroed); the same XMP properties are blanked. Make, model, lens model,
 * dates and exposure stay. A maker note (the camera maker's own block, which some makers fill with
 * a serial number too) is kept: its layout is each maker's own.
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
const EXIF_POINTER_TAG = 0x8769;
/**
 * The EXIF fields taken out of a guest's copy, in IFD0 and the Exif directory: ImageDescription,
 * Artist, Copyright, XPComment, XPAuthor, the DNG CameraSerialNumber; UserComment, CameraOwnerName
 * (exiftool's OwnerName), BodySerialNumber, LensSerialNumber, and the older OwnerName and SerialNumber
 * that Adobe's tools write (0xFDE8, 0xFDE9).
 */
const PERSONAL_TAGS = new Set([0x010e, 0x013b, 0x8298, 0x9c9c, 0x9c9d, 0xc62f, 0x9286, 0xa430, 0xa431, 0xa435, 0xfde8, 0xfde9]);
/** The same in XMP: who made it, its rights and descriptions, the owner and the serial numbers. */
const XMP_PERSONAL = 'dc:creator|dc:rights|dc:description|exif:UserComment|aux:SerialNumber|aux:LensSerialNumber|aux:OwnerName|exifEX:BodySerialNumber|exifEX:LensSerialNumber|exifEX:CameraOwnerName|photoshop:Author|photoshop:Credit|xmpRights:Owner|tiff:Artist|tiff:Copyright|tiff:ImageDescription';
const XMP_PERSONAL_ATTRIBUTE = new RegExp(`\\s(?:${XMP_PERSONAL})\\s*=\\s*("[^"]*"|'[^']*')`, 'g');
const XMP_PERSONAL_ELEMENT = new RegExp(`<(${XMP_PERSONAL})(?:\\s[^>]*)?>[\\s\\S]*?</\\1>|<(?:${XMP_PERSONAL})(?:\\s[^>]*)?/>`, 'g');
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

/** The TIFF structure starting at `base` (an EXIF block or a TIFF file): its byte order and IFD0, for the patchers below. */
async function tiffAt(reader: Reader, base: number, end: number) {
  const head = await reader.read(base, 8);
  if (head.length < 8) return undefined;
  const order = head.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return undefined;
  const le = order === 'II';
  const tiff = {
    le,
    ifd0: le ? head.readUInt32LE(4) : head.readUInt32BE(4),
    u16: (b: Buffer, at: number) => (le ? b.readUInt16LE(at) : b.readUInt16BE(at)),
    u32: (b: Buffer, at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at)),
    within: (offset: number, length: number) => offset >= 8 && base + offset + length <= end,
    /** The entries of the directory at `offset` (12 bytes each) and their count, when it is whole. */
    async directory(offset: number, spare = 0): Promise<{ count: number; entries: Buffer } | undefined> {
      if (!tiff.within(offset, 2)) return undefined;
      const count = tiff.u16(await reader.read(base + offset, 2), 0);
      if (count > 1000 || !tiff.within(offset, 2 + 12 * count + spare)) return undefined;
      return { count, entries: await reader.read(base + offset + 2, 12 * count) };
    },
    /** Where the value of entry `i` is when it is out of line (more than four bytes), and its length. */
    outOfLine(entries: Buffer, i: number): { offset: number; bytes: number } | undefined {
      const bytes = (TYPE_SIZE[tiff.u16(entries, i * 12 + 2)] ?? 0) * tiff.u32(entries, i * 12 + 4);
      const offset = tiff.u32(entries, i * 12 + 8);
      return bytes > 4 && tiff.within(offset, bytes) ? { offset, bytes } : undefined;
    },
    /** The value (an offset) of the first entry of `tag` in IFD0, or -1. */
    async pointer(tag: number): Promise<number> {
      const ifd0 = await tiff.directory(tiff.ifd0);
      if (!ifd0 || ifd0.count === 0) return -1;
      for (let i = 0; i < ifd0.count; i++) if (tiff.u16(ifd0.entries, i * 12) === tag) return tiff.u32(ifd0.entries, i * 12 + 8);
      return -1;
    },
  };
  return tiff;
}

/** The patches that empty the GPS directory of the TIFF structure starting at `base` (an EXIF block or a TIFF file). */
async function tiffGpsPatches(reader: Reader, base: number, end = reader.size): Promise<Patch[]> {
  const tiff = await tiffAt(reader, base, end);
  if (!tiff) return [];
  const gps = await tiff.pointer(GPS_POINTER_TAG);
  const dir = gps < 0 ? undefined : await tiff.directory(gps, 4);
  if (!dir) return [];
  const patches: Patch[] = [];
  // Values of more than four bytes live elsewhere in the block: zero them too.
  for (let i = 0; i < dir.count; i++) {
    const value = tiff.outOfLine(dir.entries, i);
    if (value) patches.push({ offset: base + value.offset, bytes: Buffer.alloc(value.bytes) });
  }
  // No entries, and no next directory: an empty GPS directory.
  patches.push({ offset: base + gps, bytes: Buffer.alloc(2 + 12 * dir.count + 4) });
  return patches;
}

/**
 * The patches that take PERSONAL_TAGS out of IFD0 and the Exif directory of the TIFF structure at
 * `base`: each directory written again in place with the other entries (in their order) and its
 * next-directory link, the freed entries' bytes zeroed, and the taken fields' values zeroed.
 */
async function tiffPersonalPatches(reader: Reader, base: number, end = reader.size): Promise<Patch[]> {
  const tiff = await tiffAt(reader, base, end);
  if (!tiff) return [];
  const patches: Patch[] = [];
  const exif = await tiff.pointer(EXIF_POINTER_TAG);
  for (const offset of [tiff.ifd0, ...(exif >= 0 ? [exif] : [])]) {
    const dir = await tiff.directory(offset, 4);
    if (!dir) continue;
    const kept: Buffer[] = [];
    for (let i = 0; i < dir.count; i++) {
      const entry = dir.entries.subarray(i * 12, i * 12 + 12);
      if (!PERSONAL_TAGS.has(tiff.u16(dir.entries, i * 12))) {
        kept.push(entry);
        continue;
      }
      const value = tiff.outOfLine(dir.entries, i);
      if (value) patches.push({ offset: base + value.offset, bytes: Buffer.alloc(value.bytes) });
    }
    if (kept.length === dir.count) continue;
    const count = Buffer.alloc(2);
    if (tiff.le) count.writeUInt16LE(kept.length);
    else count.writeUInt16BE(kept.length);
    const next = await reader.read(base + offset + 2 + 12 * dir.count, 4);
    const rewritten = Buffer.concat([count, ...kept, next, Buffer.alloc(12 * (dir.count - kept.length))]);
    patches.push({ offset: base + offset, bytes: rewritten });
  }
  return patches;
}

/** A patch that writes `text` with `pattern`'s matches turned to spaces, when any matched. */
function blank(offset: number, text: string, patterns: readonly RegExp[]): Patch[] {
  let out = text;
  for (const pattern of patterns) out = out.replace(pattern, (match) => ' '.repeat(match.length));
  return out === text ? [] : [{ offset, bytes: Buffer.from(out, 'latin1') }];
}

async function xmpPatches(reader: Reader, starts: readonly number[], patterns: readonly RegExp[]): Promise<Patch[]> {
  const patches: Patch[] = [];
  if (patterns.length === 0) return patches;
  for (const start of starts) {
    const block = await reader.read(start, MAX_BLOCK);
    const end = block.indexOf(XMP_END);
    if (end < 0) continue;
    // latin1 keeps one character per byte, so the blanked text has the original's length and offsets.
    patches.push(...blank(start, block.toString('latin1', 0, end), patterns));
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

/** What a guest's copy leaves out: the position (unless the link includes it), and what is personal (always, for guests). */
export type LeftOut = { location: boolean; personal: boolean };

/**
 * The patches that remove the position from the file at `file` (empty when it holds none). Reads its
 * metadata where it is: the whole file is scanned once for the blocks that may hold a position.
 */
export function locationPatches(file: string, fileType: string): Promise<Patch[]> {
  return metadataPatches(file, fileType, { location: true, personal: false });
}

/** The patches that leave out what `leave` says (the position, the personal fields), read from the file in one scan. */
export async function metadataPatches(file: string, fileType: string, leave: LeftOut): Promise<Patch[]> {
  const { reader, close } = await openReader(file);
  try {
    const patches: Patch[] = [];
    const tiffPatches = async (base: number) => [
      ...(leave.location ? await tiffGpsPatches(reader, base) : []),
      ...(leave.personal ? await tiffPersonalPatches(reader, base) : []),
    ];
    const first = await reader.read(0, 16);
    // TIFF and the raw formats built on it (DNG, CR2, NEF, ARW, ORF, RW2): the file is the TIFF structure.
    if (/^(II|MM)/.test(first.toString('latin1', 0, 2))) patches.push(...(await tiffPatches(0)));
    const found = await findAll(reader, [EXIF_HEADER, XMP_START, XYZ_BOX, PNG_EXIF, WEBP_EXIF, MATROSKA_LOCATION]);
    for (const at of found.get(EXIF_HEADER) ?? []) patches.push(...(await tiffPatches(at + EXIF_HEADER.length)));
    // PNG's eXIf and WebP's EXIF chunk may hold the TIFF structure without the Exif header.
    const isPng = first.subarray(0, 8).equals(PNG_SIGNATURE);
    const isWebp = first.toString('latin1', 0, 4) === 'RIFF' && first.toString('latin1', 8, 12) === 'WEBP';
    if (isPng) for (const at of found.get(PNG_EXIF) ?? []) patches.push(...(await tiffPatches(at + 4)));
    if (isWebp) for (const at of found.get(WEBP_EXIF) ?? []) patches.push(...(await tiffPatches(at + 8)));
    const xmp = [...(leave.location ? [XMP_GPS_ATTRIBUTE, XMP_GPS_ELEMENT] : []), ...(leave.personal ? [XMP_PERSONAL_ATTRIBUTE, XMP_PERSONAL_ELEMENT] : [])];
    patches.push(...(await xmpPatches(reader, found.get(XMP_START) ?? [], xmp)));
    if (leave.location && VIDEO_TYPES.has(fileType)) {
      patches.push(...(await moovPatches(reader)));
      patches.push(...(await videoPatches(reader, found.get(XYZ_BOX) ?? [])));
    }
    if (leave.location && MATROSKA_TYPES.has(fileType)) patches.push(...(await matroskaPatches(reader, found.get(MATROSKA_LOCATION) ?? [])));
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

/** Patches found lately, by the original's media key and what is left out (an original never changes under its name): a guest's album asks for each file often. */
const known = new Map<string, Promise<Patch[]>>();
const KNOWN_MAX = 256;

/**
 * What a guest's download of an original sends instead of what `leave` leaves out: the media store's
 * `rewrite` (SendOptions), or nothing when the file holds none of it. `key` names the original;
 * `withFile` lends a path holding it (MediaStorage.withLocalFile), read only when the key is not known yet.
 */
export async function guestCopy(
  key: string,
  fileType: string,
  leave: LeftOut,
  withFile: (use: (file: string) => Promise<Patch[]>) => Promise<Patch[]>,
): Promise<{ tag: string; transform(body: Readable, start: number): Readable } | undefined> {
  if (!leave.location && !leave.personal) return undefined;
  const tag = [leave.location ? 'nolocation' : '', leave.personal ? 'nopersonal' : ''].filter(Boolean).join('-');
  const knownKey = `${tag}\n${key}`;
  let patches = known.get(knownKey);
  if (!patches) {
    // A missing original has nothing to hide: the store answers 404 for it.
    patches = withFile((file) => metadataPatches(file, fileType, leave)).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    });
    // A failure is not remembered: the next request reads the file again.
    patches.catch(() => known.delete(knownKey));
    if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value ?? '');
    known.set(knownKey, patches);
  }
  const found = await patches;
  if (found.length === 0) return undefined;
  return { tag, transform: (body, start) => patchStream(body, found, start) };
}
