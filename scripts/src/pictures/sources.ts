import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline, Transform, type Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';

/**
 * Where an import reads files from: a zip (a takeout part: its entries streamed one by one with
 * yauzl, never unpacked to disk; yauzl checks each entry's size, and the CRC-32 is checked here as
 * it streams, since yauzl leaves that to its caller), a folder
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
            open: () => new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(checked(stream, entry.crc32, entry.fileName))))),
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

function checked(stream: Readable, expected: number, name: string): Readable {
  const check = checkCrc(expected, name);
  // An error of either (yauzl's size check, the CRC) ends the other; the caller reads `check`.
  pipeline(stream, check, () => {});
  return check;
}

/** Passes the bytes on and fails at the end when their CRC-32 is not the zip's record of it (a damaged part). */
function checkCrc(expected: number, name: string): Transform {
  let crc = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      crc = crc32(chunk, crc);
      done(null, chunk);
    },
    flush(done) {
      done(crc >>> 0 === expected >>> 0 ? null : new Error(`${name}: its bytes do not match the zip's checksum (a damaged download?)`));
    },
  });
}
