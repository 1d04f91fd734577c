import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline, Readable, Transform } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';
import yauzl from 'yauzl';

/**
 * Where an import reads files from: a zip (a takeout part: yauzl reads its central directory and
 * each entry's local header, never unpacked to disk; the entry's bytes are read and inflated here in
 * large chunks, 1 MiB reads and 256 KiB inflate output, three times yauzl's own stream of 64 KiB reads
 * and 16 KiB inflate chunks: 130 -> 400 MB/s measured, which made the import of bench:import half the
 * rate of uploads; each entry's size and CRC-32 are checked as it streams), a folder
 * (walked recursively), or a single file. Listing holds no entry: each pass reads the zip's central
 * directory or the folder again, so memory does not grow with the number of files.
 */
export type SourceEntry = {
  /** Its path as the takeout rules read it: inside the zip, or from the folder's own name (`Takeout/Google Photos/...`). */
  path: string;
  size: number;
  /** Tells this file apart from every other between runs (the journal's key). */
  key: string;
  open(): Promise<Readable>;
};

export type Source = { label: string; entries(): AsyncGenerator<SourceEntry> };

/** Files the file system's own tools leave in folders: not the family's, not reported. */
const NOISE = new Set(['.ds_store', 'thumbs.db', 'desktop.ini']);
const noise = (name: string) => name.startsWith('.') || NOISE.has(name.toLowerCase());

export class SourceError extends Error {}

export async function openSource(given: string): Promise<Source> {
  const abs = path.resolve(given);
  const stat = await fsp.stat(abs).catch(() => null);
  if (!stat) throw new SourceError(`${given}: no such file or folder`);
  if (stat.isDirectory()) return folderSource(abs);
  if (/\.zip$/i.test(abs)) return zipSource(abs);
  return {
    label: abs,
    async *entries() {
      yield { path: path.basename(abs), size: stat.size, key: `${abs}:${stat.size}:${stat.mtimeMs}`, open: async () => fs.createReadStream(abs) };
    },
  };
}

function folderSource(root: string): Source {
  const top = path.basename(root);
  async function* walk(dir: string, rel: string): AsyncGenerator<SourceEntry> {
    const names = (await fsp.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of names) {
      if (noise(dirent.name)) continue;
      const full = path.join(dir, dirent.name);
      const relative = `${rel}/${dirent.name}`;
      if (dirent.isDirectory()) yield* walk(full, relative);
      else if (dirent.isFile()) {
        const stat = await fsp.stat(full);
        yield { path: relative, size: stat.size, key: `${full}:${stat.size}:${stat.mtimeMs}`, open: async () => fs.createReadStream(full) };
      }
    }
  }
  return { label: root, entries: () => walk(root, top) };
}

const openZip = (file: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true }, (error, zip) => (error ? reject(new SourceError(`${file}: ${error.message}`)) : resolve(zip))),
  );

function zipSource(file: string): Source {
  return {
    label: file,
    async *entries() {
      const zip = await openZip(file);
      try {
        for (;;) {
          const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
            const onEntry = (e: yauzl.Entry) => done(() => resolve(e));
            const onEnd = () => done(() => resolve(null));
            const onError = (error: Error) => done(() => reject(new SourceError(`${file}: ${error.message}`)));
            const done = (then: () => void) => {
              zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
              then();
            };
            zip.once('entry', onEntry).once('end', onEnd).once('error', onError);
            zip.readEntry();
          });
          if (!entry) return;
          if (entry.fileName.endsWith('/')) continue;
          const name = entry.fileName.split('/').at(-1) ?? '';
          if (noise(name) || entry.fileName.startsWith('__MACOSX/')) continue;
          yield {
            path: entry.fileName,
            size: entry.uncompressedSize,
            key: `${file}:${entry.fileName}:${entry.uncompressedSize}:${entry.crc32}`,
            open: () => openEntry(file, entry),
          };
        }
      } finally {
        zip.close();
      }
    },
  };
}

/** Reads a small entry whole (a sidecar); null when it is larger than `max`. */
export async function readSmall(entry: SourceEntry, max = 1024 * 1024): Promise<string | null> {
  if (entry.size > max) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of await entry.open()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const READ_BYTES = 1024 * 1024;
const INFLATE_CHUNK = 256 * 1024;

/**
 * An entry's bytes: stored (0) or deflated (8), the two methods zips of photos use; anything else is
 * unreadable. The zip is opened once for the entry: its local header is read (30 bytes, then its name
 * and extra field, whose lengths may differ from the central directory's), then its bytes from there
 * on the same handle. Not through yauzl's reader, so an entry opens after its listing has been closed
 * too (the import reads a file while the listing goes on, or has ended).
 */
async function openEntry(file: string, entry: yauzl.Entry): Promise<Readable> {
  if (entry.isEncrypted()) throw new Error(`${entry.fileName}: the entry is encrypted`);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) throw new Error(`${entry.fileName}: unsupported compression method ${entry.compressionMethod}`);
  const handle = await fsp.open(file, 'r');
  let start: number;
  try {
    const header = Buffer.alloc(30);
    const { bytesRead } = await handle.read(header, 0, 30, entry.relativeOffsetOfLocalHeader);
    if (bytesRead < 30 || header.readUInt32LE(0) !== 0x04034b50) throw new Error(`${entry.fileName}: its local header is missing (a damaged download?)`);
    start = entry.relativeOffsetOfLocalHeader + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  } catch (error) {
    await handle.close();
    throw error;
  }
  let source: Readable;
  if (entry.compressedSize === 0) {
    await handle.close();
    source = Readable.from([]);
  } else {
    // The stream closes the handle when it ends or fails.
    source = fs.createReadStream(file, { fd: handle, start, end: start + entry.compressedSize - 1, highWaterMark: READ_BYTES });
  }
  const check = checkEntry(entry.uncompressedSize, entry.crc32, entry.fileName);
  // An error of any (the read, the inflate, the size or CRC check) ends the others; the caller reads `check`.
  if (entry.compressionMethod === 8) pipeline(source, createInflateRaw({ chunkSize: INFLATE_CHUNK }), check, () => {});
  else pipeline(source, check, () => {});
  return check;
}

/** Passes the bytes on and fails when they are more or fewer than the zip's record of the entry, or their CRC-32 differs (a damaged part). */
function checkEntry(expectedSize: number, expectedCrc: number, name: string): Transform {
  let crc = 0;
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > expectedSize) return done(new Error(`${name}: more bytes than the zip records (a damaged download?)`));
      crc = crc32(chunk, crc);
      done(null, chunk);
    },
    flush(done) {
      if (size !== expectedSize) return done(new Error(`${name}: fewer bytes than the zip records (a damaged download?)`));
      done(crc >>> 0 === expectedCrc >>> 0 ? null : new Error(`${name}: its bytes do not match the zip's checksum (a damaged download?)`));
    },
  });
}
