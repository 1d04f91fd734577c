import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tarStream from 'tar-stream';

/**
 * The archive itself: one gzip'd tar written in one pass, entry after entry, each hashed (SHA-256)
 * and counted as it streams through, and read back the same way. Nothing is staged beside it and
 * nothing is held in memory but the entry being copied (a chunk at a time, with backpressure).
 */

export class BackupError extends Error {}

export type ManifestEntry = { name: string; size: number; sha256: string };

/** The manifest is the archive's last entry: it lists (and so can check) every entry before it. */
export const MANIFEST = 'manifest.json';

/**
 * Media is mostly compressed already (JPEG, MP4); the tables' JSON compresses well even at a low
 * level. Level 1 is several times faster than the default 6 and costs a few percent of size here.
 */
const GZIP_LEVEL = 1;

type Sink = { write(chunk: Buffer): boolean; once(event: 'drain', listener: () => void): unknown };

/** Copies chunks into an entry with backpressure; `failure` rejects when the archive can no longer be written. */
async function writeChunks(target: Sink, chunks: AsyncIterable<Buffer>, hash: ReturnType<typeof createHash>, failure: Promise<never>) {
  let size = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    size += chunk.length;
    if (!target.write(chunk)) await Promise.race([new Promise<void>((resolve) => target.once('drain', resolve)), failure]);
  }
  return size;
}

const CHUNK = 256 * 1024;

/**
 * The buffers files are read into, handed back once gzip has taken their bytes: a gigabyte read in
 * fresh 64 KB chunks leaves tens of megabytes of garbage between two collections (the server's RSS
 * grew by that much); reading into four reused buffers leaves none.
 */
class ReadBuffers {
  private readonly all = Array.from({ length: 4 }, () => Buffer.allocUnsafeSlow(CHUNK));
  private readonly free = [...this.all];
  private waiting: (() => void)[] = [];

  async take(): Promise<Buffer> {
    for (;;) {
      const buffer = this.free.pop();
      if (buffer) return buffer;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** A chunk gzip has consumed: if it is one of ours, it may be read into again. */
  giveBack(chunk: Buffer): void {
    const owner = this.all.find((b) => b.buffer === chunk.buffer);
    if (!owner || this.free.includes(owner)) return;
    this.free.push(owner);
    this.waiting.shift()?.();
  }
}

/** What stops a backup: the server stopping. Checked at every chunk, so a large file does not hold up the shutdown. */
export const STOPPED = 'The server stopped before the backup finished';

async function* readChunks(handle: fsp.FileHandle, size: number, buffers: ReadBuffers, signal: AbortSignal | undefined): AsyncGenerator<Buffer> {
  // A file that grows meanwhile (a log) is cut at the size it had; one that shrinks fails the entry.
  for (let position = 0; position < size; ) {
    if (signal?.aborted) throw new BackupError(STOPPED);
    const buffer = await buffers.take();
    const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK, size - position), position);
    if (bytesRead === 0) {
      buffers.giveBack(buffer);
      return;
    }
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

export type ArchiveWriter = {
  /** Adds a file from the disk under `name`, read once (hashed while it streams); `signal` stops it between two chunks. */
  addFile(name: string, source: string, signal?: AbortSignal): Promise<void>;
  /** Adds a small entry from memory. */
  addBuffer(name: string, data: Buffer): Promise<void>;
  /** Adds an entry of `size` bytes streamed from elsewhere (a media store); fewer or more bytes fail it. */
  addStream(name: string, size: number, mtime: Date, chunks: AsyncIterable<Buffer>, signal?: AbortSignal): Promise<void>;
  /** The entries written so far (name, size, SHA-256), in order. */
  readonly entries: readonly ManifestEntry[];
  /** Ends the archive and makes it durable (fsync) before returning. */
  finish(): Promise<void>;
  /** Stops writing after a failure (the caller removes the file). */
  abort(): Promise<void>;
};

/** Opens `file` (created or emptied) for one archive. */
export async function createArchive(file: string): Promise<ArchiveWriter> {
  const pack = tarStream.pack();
  const output = fs.createWriteStream(file, { mode: 0o600 });
  const gzip = zlib.createGzip({ level: GZIP_LEVEL });
  const buffers = new ReadBuffers();
  // pack -> gzip by hand: each chunk's write callback says gzip is done with it, so its buffer is free.
  const written = (async () => {
    const compressed = pipeline(gzip, output);
    compressed.catch(() => {});
    try {
      for await (const chunk of pack as AsyncIterable<Buffer>) {
        await new Promise<void>((resolve, reject) => gzip.write(chunk, (error) => (error ? reject(error) : resolve())));
        buffers.giveBack(chunk);
      }
      gzip.end();
    } catch (error) {
      // The file failed (disk full) and gzip was closed with it: that failure is the one to report.
      await compressed;
      throw error;
    }
    await compressed;
  })();
  const entries: ManifestEntry[] = [];
  // Awaited in finish()/abort(); a failure meanwhile (disk full) stops the next entry.
  let failed: unknown;
  written.catch((error: unknown) => (failed = error));
  // Settles only on a failure: a wait for room in the archive must not outlive it (disk full).
  const failure = written.then(() => new Promise<never>(() => {}));
  failure.catch(() => {});

  async function addEntry(name: string, size: number, mtime: Date, chunks: AsyncIterable<Buffer>) {
    if (failed) throw failed;
    const hash = createHash('sha256');
    let settle!: (error?: Error | null) => void;
    const done = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
    done.catch(() => {});
    const entry = pack.entry({ name, size, mtime, mode: 0o644, type: 'file' }, (error) => settle(error));
    let copied: number;
    try {
      copied = await writeChunks(entry, chunks, hash, failure);
    } catch (error) {
      entry.destroy();
      throw error;
    }
    if (copied !== size) {
      entry.destroy();
      throw new BackupError(`${name} changed while it was being backed up (${size} bytes expected, ${copied} read): run the backup again`);
    }
    entry.end(null);
    await Promise.race([done, failure]);
    entries.push({ name, size, sha256: hash.digest('hex') });
  }

  return {
    entries,
    async addFile(name, source, signal) {
      // Opened before its entry starts: a file removed meanwhile fails here, with the archive intact.
      const handle = await fsp.open(source, 'r');
      try {
        const stat = await handle.stat();
        await addEntry(name, stat.size, stat.mtime, readChunks(handle, stat.size, buffers, signal));
      } finally {
        await handle.close();
      }
    },
    async addBuffer(name, data) {
      await addEntry(name, data.length, new Date(), oneChunk(data));
    },
    async addStream(name, size, mtime, chunks, signal) {
      await addEntry(
        name,
        size,
        mtime,
        (async function* () {
          for await (const chunk of chunks) {
            if (signal?.aborted) throw new BackupError(STOPPED);
            yield chunk;
          }
        })(),
      );
    },
    async finish() {
      pack.finalize();
      await written;
      // fsync works on the file, whichever descriptor asks: the archive is on the disk before it is named.
      const handle = await fsp.open(file, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
    async abort() {
      pack.destroy();
      gzip.destroy();
      output.destroy();
      await written.catch(() => {});
    },
  };
}

async function* oneChunk(data: Buffer) {
  if (data.length > 0) yield data;
}

/** An archive entry being read: its name, declared size and a stream of its bytes. */
export type ArchiveEntry = { name: string; size: number; type: string; stream: AsyncIterable<Buffer> };

/**
 * Reads an archive entry by entry, in order. Each entry's stream must be consumed (or resumed)
 * before the next one arrives. A damaged archive (bad gzip, cut short, bad tar header) throws.
 */
export async function* readArchive(file: string): AsyncGenerator<ArchiveEntry> {
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist`);
  const extract = tarStream.extract();
  const reading = pipeline(fs.createReadStream(file), zlib.createGunzip(), extract);
  let failure: unknown;
  reading.catch((error: unknown) => (failure = error));
  try {
    for await (const entry of extract) {
      yield { name: entry.header.name, size: entry.header.size, type: entry.header.type, stream: entry as AsyncIterable<Buffer> };
      entry.resume();
    }
    await reading;
  } catch (error) {
    throw unreadable(file, failure ?? error);
  } finally {
    extract.destroy();
  }
}

/** The error for an archive that cannot be read to its end (a BackupError passes as it is). */
export function unreadable(file: string, error: unknown): Error {
  if (error instanceof BackupError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new BackupError(`${file} is damaged or not a .tar.gz backup (${message})`);
}

/** Reads an entry's bytes fully, hashing them; `signal` stops it between two chunks. */
export async function digestEntry(entry: ArchiveEntry, signal?: AbortSignal): Promise<ManifestEntry> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of entry.stream) {
    if (signal?.aborted) throw new BackupError(STOPPED);
    hash.update(chunk);
    size += chunk.length;
  }
  return { name: entry.name, size, sha256: hash.digest('hex') };
}

/** Reads a small entry (the manifest) into memory, refusing one larger than `max` bytes. */
export async function readSmallEntry(entry: ArchiveEntry, max = 64 * 1024 * 1024): Promise<Buffer> {
  if (entry.size > max) throw new BackupError(`${entry.name} is ${entry.size} bytes, larger than a manifest can be`);
  const chunks: Buffer[] = [];
  for await (const chunk of entry.stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Where an entry would land when unpacked under a root; refuses absolute paths and `..`. */
export function safeRelative(name: string): string {
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (name.startsWith('/') || parts.includes('..') || parts.length === 0) throw new BackupError(`The archive holds an unsafe path: ${name}`);
  return parts.join('/');
}
