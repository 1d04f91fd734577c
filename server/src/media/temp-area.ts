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
      const sink = fileSink(temp, written);
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

    async tempDir(prefix: string) {
      const dir = await fsp.mkdtemp(path.join(root, `${prefix.replace(/[^A-Za-z0-9_-]/g, '')}-`));
      return { path: dir, remove: () => fsp.rm(dir, { recursive: true, force: true }) };
    },

    sweep: (olderThanMs: number) => sweepTemp(root, olderThanMs),
  };
}

export type TempArea = ReturnType<typeof createTempArea>;

/** Writes every byte of `buffers` (a short write goes on from where it stopped); the bytes written. */
async function writeAll(handle: fsp.FileHandle, buffers: Buffer[]): Promise<number> {
  const total = buffers.reduce((sum, b) => sum + b.length, 0);
  let at = (await handle.writev(buffers)).bytesWritten;
  if (at < total) {
    const rest = Buffer.concat(buffers).subarray(at);
    for (let from = 0; from < rest.length; ) from += (await handle.write(rest, from, rest.length - from)).bytesWritten;
    at = total;
  }
  return at;
}

/** A new file (refused if it exists) written chunk by chunk, telling `written`, when given, the bytes on disk after each and waiting for it. */
function fileSink(file: string, written?: (onDisk: number) => Promise<void> | void): Writable {
  let handle: fsp.FileHandle | null = null;
  let onDisk = 0;
  return new Writable({
    highWaterMark: 1024 * 1024,
    construct(done) {
      fsp.open(file, 'wx').then((opened) => {
        handle = opened;
        done();
      }, done);
    },
    // The chunks waiting are written in one call (as fs.createWriteStream does): a write per 64 KiB
    // chunk made a 1 GiB upload half again as long.
    writev(chunks, done) {
      const buffers = chunks.map((c) => c.chunk as Buffer);
      writeAll(handle!, buffers)
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
