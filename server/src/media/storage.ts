import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/**
 * Where uploaded and derived files live, behind one small interface so an object store can replace
 * the local disk without touching the areas. Keys are made by the server (`pictures/4f1c….jpg`), never
 * taken from a client: `assertMediaKey` refuses anything else, traversal included.
 */
export interface MediaStorage {
  /** What the store is, for the admin page and logs ('the local folder /srv/media', 'the bucket family at http://…'). */
  readonly description: string;
  /**
   * The folder of this machine that holds the stored files as files, when there is one (the local
   * store: MEDIA_DIR); null for a store elsewhere. Backups take such a folder as files, every one of
   * them, and otherwise stream the store's files through `walk` and `read`.
   */
  readonly localFolder: string | null;
  /**
   * Whether the store answers now (a small request to it); never throws. Every other method throws
   * MediaUnavailableError while it does not, and works again as soon as it does (no restart).
   */
  health(): Promise<{ ok: true } | { ok: false; reason: string }>;
  /**
   * Streams an incoming file into a temporary file of the store, never holding it whole in memory.
   * Nothing is visible under any key until `commit`; a failure, an abort or a file over `maxBytes`
   * removes the temporary file and rejects (MediaTooLargeError for the size).
   */
  receive(source: Readable | AsyncIterable<Uint8Array>, opts: { maxBytes: number; signal?: AbortSignal }): Promise<IncomingFile>;
  /**
   * Takes a whole file from `resumableFolder` (a resumable upload's parts, complete) as an incoming file,
   * as `receive` would have made it: over `maxBytes` it is removed and MediaTooLargeError thrown. Its
   * SHA-256 is read from the disk unless `sha256` is given (hashed as the parts arrived). A bucket gets
   * it before this resolves, so `commit` is the same quick step as after `receive`.
   */
  adopt(file: string, opts: { maxBytes: number; sha256?: string }): Promise<IncomingFile>;
  /**
   * A folder of this machine, inside the temporary area (the same disk as `receive`'s files), where
   * resumable uploads keep their parts until whole: the temporary sweep leaves it alone.
   */
  resumableFolder(): string;
  /** Stores a small file made in memory (thumbnails, documents sent as base64), via a temporary file. */
  put(key: string, data: Uint8Array): Promise<StoredFile>;
  stat(key: string): Promise<{ size: number; modified: Date } | null>;
  /** The bytes of a stored file, or of a byte range of it (inclusive `end`). */
  read(key: string, range?: { start: number; end: number }): Readable;
  readBuffer(key: string): Promise<Buffer>;
  /**
   * Runs `use` with a path on this machine holding the stored file, for tools that need one (sharp,
   * ffmpeg, exifr): the file itself on the local disk, a temporary copy (removed afterwards) for a bucket.
   */
  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T>;
  /**
   * The files stored under a folder key ('pictures'), not recursing, with their sizes and times;
   * empty when the folder does not exist.
   */
  list(folder: string): Promise<{ key: string; size: number; modified: Date }[]>;
  /** Every stored file, in every folder (never the temporary ones), for moving and backing up a whole store. */
  walk(): AsyncIterable<{ key: string; size: number; modified: Date }>;
  /**
   * Removes what a crash left in the temporary area: files and folders nothing has written to for
   * `olderThanMs` (an upload or a tool at work keeps writing, so it is never taken).
   */
  sweepTemporary(olderThanMs: number): Promise<number>;
  /** Removes a stored file; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** A fresh, empty temporary folder inside the store, for a tool's output; `remove` deletes it whatever it holds. */
  tempDir(prefix: string): Promise<{ path: string; remove(): Promise<void> }>;
  /**
   * Answers a GET/HEAD with a stored file: Content-Type, Content-Length, ETag and Last-Modified,
   * conditional requests (304) and HTTP Range (206, 416), cached for a year when the key never
   * changes (`immutable`), else revalidated.
   */
  send(req: FastifyRequest, reply: FastifyReply, key: string, opts?: SendOptions): Promise<FastifyReply>;
}

export type SendOptions = {
  /** The type to answer with (from the bytes, kept with the file's row); else from the key's extension. */
  contentType?: string;
  /** The key names this content forever (a hash or a fresh id): cache for a year. */
  immutable?: boolean;
  /** Never kept by the browser (`private, no-store`): what a shared browser must not hold after sign-out. Wins over `immutable`. */
  noStore?: boolean;
  /** A Content-Security-Policy for this answer (e.g. `sandbox` for SVG, so it cannot run script). */
  csp?: string;
  /** Offer the file as a download under this name (UTF-8, RFC 6266/5987). */
  downloadName?: string;
  /**
   * Rewrites the bytes sent without changing their length (a guest's copy without the position:
   * pictures.location.ts), so a range of the answer is the same range of the stored file. `start` is
   * the offset in the file of the stream's first byte. The answer's ETag names the rewritten bytes.
   */
  rewrite?: { tag: string; transform(body: Readable, start: number): Readable };
};

export type StoredFile = { key: string; size: number };

/** A file received into the store's temporary area, not yet visible under a key. */
export type IncomingFile = {
  size: number;
  /** Its first bytes (up to 4100), enough for file-type to tell what it is. */
  head: Buffer;
  /** SHA-256 of its bytes, hex, computed while it streamed in. */
  sha256: string;
  /** Where it is on this machine while pending (sharp, ffmpeg and file-type can read it). */
  path: string;
  /** Puts it in place under `key`, all at once (a rename on the disk, a copy inside the bucket). */
  commit(key: string): Promise<StoredFile>;
  /** Removes it; calling it after commit does nothing. */
  discard(): Promise<void>;
};

export class MediaTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than the limit of ${formatBytes(maxBytes)}`);
    this.name = 'MediaTooLargeError';
  }
}

export class MediaKeyError extends Error {}

/**
 * The store cannot be reached or refuses us (down, unreachable, wrong key, missing bucket): a 503 with
 * words a person can act on, never a 500. Nothing was stored by the call that failed.
 */
export class MediaUnavailableError extends AppError {
  constructor(
    doing: 'store' | 'load',
    readonly reason: string,
  ) {
    super(
      'SERVICE_UNAVAILABLE',
      doing === 'store'
        ? 'The file could not be stored: the media store is not answering right now. Nothing was kept; try again in a minute.'
        : 'This file cannot be loaded right now: the media store is not answering. Try again in a minute.',
    );
    this.name = 'MediaUnavailableError';
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** A key is one or more segments of letters, digits, '.', '_' and '-', not starting with '.' or '-'. */
export function assertMediaKey(key: string): string {
  const segments = key.split('/');
  if (key.length > 512 || segments.some((s) => !SEGMENT.test(s) || s.includes('..'))) {
    throw new MediaKeyError(`Not a media key: ${JSON.stringify(key.slice(0, 80))}`);
  }
  return key;
}

export function isMediaKey(key: string): boolean {
  try {
    assertMediaKey(key);
    return true;
  } catch {
    return false;
  }
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/** A Content-Disposition value that carries any file name: an ASCII fallback plus the UTF-8 original. */
export function contentDisposition(name: string, kind: 'attachment' | 'inline' = 'attachment'): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
