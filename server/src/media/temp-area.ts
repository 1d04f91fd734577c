import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MediaTooLargeError } from './storage.ts';

const HEAD_BYTES = 4100;

/** How long a temporary file or folder must have been left untouched before a sweep takes it. */
export const STALE_TEMP_MS = 5 * 60 * 1000;

/**
 * The folder of the temporary area that holds resumable uploads' parts (pictures.resumable.ts): kept
 * for a day between a dropped connection and its resume, so the sweep above leaves it alone; the
 * uploads' own sweep removes what was abandoned.
 */
export const RESUMABLE_FOLDER = 'resumable';

export type ReceivedFile = { path: string; size: number; head: Buffer; sha256: string };

/**
 * A folder on this machine for files on their way in and for tools' work (both stores have one: a
 * bucket's uploads are also kept here while the decoders read them).
 */
export function createTempArea(root: string, sweepOlderThanMs = STALE_TEMP_MS) {
  fs.mkdirSync(root, { recursive: true });
  void sweepTemp(root, sweepOlderThanMs).catch(() => {});
  const newPath = () => path.join(root, randomBytes(12).toString('hex'));

  return {
    root,
    newPath,

    /**
     * Streams `source` into a new file, counting, hashing and keeping the first bytes on the way. When
     * `written` is given it is told the bytes on disk after each write, and the next write waits for
     * its promise (a bucket's upload reads its parts back from the file: s3-file-upload.ts). On any
     * failure the file is removed and the promise rejects. `path` (from `newPath`) names the file ahead.
     */
    async receive(
      source: Readable | AsyncIterable<Uint8Array>,
      opts: { maxBytes: number; signal?: AbortSignal; path?: string; written?: (onDisk: number) => Promise<void> | void },
    ): Promise<ReceivedFile> {
      const temp = opts.path ?? newPath();
      const { maxBytes, signal, written } = opts;
      let size = 0;
      const chunks: Buffer[] = [];
      let headLength = 0;
      const hash = createHash('sha256');
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > maxBytes) return done(new MediaTooLargeError(maxBytes));
          hash.update(chunk);
          if (headLength < HEAD_BYTES) {
            const part = chunk.subarray(0, HEAD_BYTES - headLength);
            chunks.push(Buffer.from(part));
            headLength += part.length;
          }
          done(null, chunk);
        },
      });
      const sink = fileSink(temp, written ? { written } : {});
      try {
        await pipeline(source as Readable, counter, sink, signal ? { signal } : {});
      } catch (error) {
        // The pipeline can reject (an abort) while the file is still being opened: the file is removed
        // only once the sink has closed, or it would appear after the removal and stay.
        if (!sink.closed) await new Promise((resolve) => sink.once('close', resolve));
        await fsp.rm(temp, { force: true });
        throw error;
      }
      return { path: temp, size, head: Buffer.concat(chunks), sha256: hash.digest('hex') };
    },

    /**
     * Takes a whole file already inside the area (a resumable upload's parts once complete) as a
     * received file: its size checked against `maxBytes` (a file over it is removed), its first bytes
     * read, and its SHA-256 computed from the disk unless the caller hashed it as it arrived.
     */
    async adopt(file: string, opts: { maxBytes: number; sha256?: string }): Promise<ReceivedFile> {
      const inside = path.relative(root, file);
      if (inside.startsWith('..') || path.isAbsolute(inside)) throw new Error(`Not a file of the temporary area: ${file}`);
      const { size } = await fsp.stat(file);
      if (size > opts.maxBytes) {
        await fsp.rm(file, { force: true });
        throw new MediaTooLargeError(opts.maxBytes);
      }
      const handle = await fsp.open(file, 'r');
      try {
        const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
        for (let at = 0; at < head.length; ) {
          const { bytesRead } = await handle.read(head, at, head.length - at, at);
          if (bytesRead === 0) break;
          at += bytesRead;
        }
        let sha256 = opts.sha256;
        if (!sha256) {
          const hash = createHash('sha256');
          for await (const chunk of handle.createReadStream({ start: 0, autoClose: false, highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
          sha256 = hash.digest('hex');
        }
        return { path: file, size, head, sha256 };
      } finally {
        await handle.close();
      }
    },

    /** The folder of resumable uploads' parts (RESUMABLE_FOLDER), made when first asked for. */
    resumableFolder(): string {
      const folder = path.join(root, RESUMABLE_FOLDER);
      fs.mkdirSync(folder, { recursive: true });
      return folder;
    },

    async tempDir(prefix: string) {
      const dir = await fsp.mkdtemp(path.join(root, `${prefix.replace(/[^A-Za-z0-9_-]/g, '')}-`));
      return { path: dir, remove: () => fsp.rm(dir, { recursive: true, force: true }) };
    },

    sweep: (olderThanMs: number) => sweepTemp(root, olderThanMs),
  };
}

export type TempArea = ReturnType<typeof createTempArea>;

/** Writes every byte of `buffers` at `position` (a short write goes on from where it stopped); the bytes written. */
async function writeAll(handle: fsp.FileHandle, buffers: Buffer[], position: number): Promise<number> {
  const total = buffers.reduce((sum, b) => sum + b.length, 0);
  let at = (await handle.writev(buffers, position)).bytesWritten;
  if (at < total) {
    const rest = Buffer.concat(buffers).subarray(at);
    for (let from = 0; from < rest.length; ) from += (await handle.write(rest, from, rest.length - from, position + at + from)).bytesWritten;
    at = total;
  }
  return at;
}

/**
 * A file written chunk by chunk: a new one (refused if it exists), or with `start` an existing one
 * from that byte on (a resumable upload's next part: pictures.resumable.ts). When `written` is given
 * it is told the bytes on disk after each write, and the next write waits for it.
 */
export function fileSink(file: string, opts: { start?: number; written?: (onDisk: number) => Promise<void> | void } = {}): Writable {
  const { start, written } = opts;
  let handle: fsp.FileHandle | null = null;
  let onDisk = 0;
  return new Writable({
    highWaterMark: 1024 * 1024,
    construct(done) {
      fsp.open(file, start === undefined ? 'wx' : 'r+').then((opened) => {
        handle = opened;
        done();
      }, done);
    },
    // The chunks waiting are written in one call (as fs.createWriteStream does): a write per 64 KiB
    // chunk made a 1 GiB upload half again as long.
    writev(chunks, done) {
      const buffers = chunks.map((c) => c.chunk as Buffer);
      writeAll(handle!, buffers, (start ?? 0) + onDisk)
        .then(async (bytes) => {
          onDisk += bytes;
          await written?.(onDisk);
        })
        .then(() => done(), done);
    },
    final(done) {
      handle!.close().then(() => {
        handle = null;
        done();
      }, done);
    },
    destroy(error, done) {
      if (!handle) return done(error);
      handle.close().then(
        () => done(error),
        () => done(error),
      );
    },
  });
}

/** The newest modification time in a file or folder tree (a tool writing deep inside keeps it fresh). */
async function newestChange(file: string): Promise<number> {
  const stat = await fsp.stat(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of await fsp.readdir(file)) newest = Math.max(newest, await newestChange(path.join(file, name)).catch(() => 0));
  return newest;
}

async function sweepTemp(dir: string, olderThanMs: number): Promise<number> {
  const cutoff = Date.now() - olderThanMs;
  let removed = 0;
  for (const name of await fsp.readdir(dir).catch(() => [])) {
    // Resumable uploads wait up to a day for their next part: they have their own sweep.
    if (name === RESUMABLE_FOLDER) continue;
    const file = path.join(dir, name);
    try {
      if ((await newestChange(file)) < cutoff) {
        await fsp.rm(file, { recursive: true, force: true });
        removed++;
      }
    } catch {
      // gone already
    }
  }
  return removed;
}
