import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import send from '@fastify/send';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { S3Settings } from '../config.ts';
import {
  assertMediaKey,
  contentDisposition,
  isMediaKey,
  MediaTooLargeError,
  MediaUnavailableError,
  type IncomingFile,
  type MediaStorage,
  type SendOptions,
  type StoredFile,
} from './storage.ts';
import { uploadFromFile } from './s3-file-upload.ts';
import { createTempArea, STALE_TEMP_MS, type ReceivedFile } from './temp-area.ts';

const YEAR_SECONDS = 365 * 24 * 60 * 60;
/** Objects of uploads still arriving live under this folder of the prefix: never a media key ('.' cannot start one). */
const INCOMING = '.incoming/';
/** CopyObject's own limit: a larger file is uploaded again from the local copy instead. */
const COPY_MAX_BYTES = 5 * 1024 ** 3;
/** A multipart upload's part, and the parts sent at once (each is read back from the local file). */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 3;

export type S3StorageOptions = S3Settings & {
  /** The local folder for files on their way in and tools' work (MEDIA_DIR/.tmp). */
  tempRoot: string;
  sweepOlderThanMs?: number;
  /** Multipart part size (S3: at least 5 MiB) and parts sent at once; parts are read back from the local file, so memory holds neither. */
  partSize?: number;
  queueSize?: number;
  /** How long to wait for the store to accept a connection and to answer, before calling it unavailable. */
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Memory kept for small files whose key never changes (thumbnails), served without asking the bucket. */
  cacheBytes?: number;
};

/** Files up to this size whose key names them forever (SendOptions.immutable) are kept in memory once read. */
const CACHED_MAX_BYTES = 1024 * 1024;

type Cached = { body: Buffer; etag: string; modified: Date };

/**
 * The small immutable files read lately, least recently used dropped first, up to `limit` bytes: a
 * gallery page asks for dozens of thumbnails at once, and a round trip to the bucket for each costs
 * what the disk does not. Only the bytes are kept: every request still passes its access check first.
 */
function createSmallFileCache(limit: number) {
  const entries = new Map<string, Cached>();
  let bytes = 0;
  return {
    get(key: string): Cached | undefined {
      const found = entries.get(key);
      if (found) {
        entries.delete(key);
        entries.set(key, found);
      }
      return found;
    },
    set(key: string, value: Cached) {
      if (value.body.length > limit) return;
      this.delete(key);
      entries.set(key, value);
      bytes += value.body.length;
      for (const [oldest, old] of entries) {
        if (bytes <= limit) break;
        entries.delete(oldest);
        bytes -= old.body.length;
      }
    },
    delete(key: string) {
      const found = entries.get(key);
      if (found) bytes -= found.body.length;
      entries.delete(key);
    },
  };
}

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, Garage, Ceph RGW, B2, R2) under `prefix`. Uploads
 * stream into the bucket as a multipart upload under `.incoming/` while a local copy is kept for the
 * decoders (file-type, sharp, exifr read a path), and are copied under their key inside the bucket on
 * commit; an abort aborts the multipart upload, so no object is left. Files are served through this
 * server (see `send`): the access check runs on every request, so a revoked link stops at once.
 */
export function createS3Storage(opts: S3StorageOptions): MediaStorage {
  const client = new S3Client({
    region: opts.region,
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    forcePathStyle: opts.forcePathStyle,
    ...(opts.credentials ? { credentials: opts.credentials } : {}),
    // A store that is down must be told quickly (a page waits on it), and once more at most.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: opts.connectTimeoutMs ?? 3000, requestTimeout: opts.requestTimeoutMs ?? 60_000 },
  });
  const bucket = opts.bucket;
  const prefix = opts.prefix;
  const temp = createTempArea(opts.tempRoot, opts.sweepOlderThanMs ?? STALE_TEMP_MS);
  const objectKey = (key: string) => prefix + assertMediaKey(key);
  const cache = createSmallFileCache(opts.cacheBytes ?? 32 * 1024 * 1024);
  const where = `the bucket ${bucket}${prefix ? ` (folder ${prefix})` : ''} at ${opts.endpoint ?? 'AWS S3'}`;

  /** Runs a request; a store that cannot be reached or refuses us becomes MediaUnavailableError. */
  async function call<T>(doing: 'store' | 'load', request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw unavailable(doing, error) ?? error;
    }
  }

  async function getObject(key: string, extra: { Range?: string; IfNoneMatch?: string; IfModifiedSince?: Date } = {}): Promise<GetObjectCommandOutput | 'missing' | 'not-modified' | 'bad-range'> {
    try {
      return await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key), ...extra }));
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) return 'missing';
      if (status === 304) return 'not-modified';
      if (status === 416) return 'bad-range';
      throw unavailable('load', error) ?? error;
    }
  }

  async function head(key: string): Promise<{ size: number; modified: Date; etag: string } | null> {
    try {
      const answer = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
      return { size: answer.ContentLength ?? 0, modified: answer.LastModified ?? new Date(0), etag: answer.ETag ?? '' };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw unavailable('load', error) ?? error;
    }
  }

  /** A small file read whole into the cache; null when it is larger (or missing: the usual path answers). */
  async function readSmall(key: string): Promise<Cached | null> {
    const answer = await getObject(key);
    if (typeof answer === 'string') return null;
    if ((answer.ContentLength ?? Infinity) > CACHED_MAX_BYTES) {
      (answer.Body as Readable).destroy();
      return null;
    }
    const body = Buffer.from(await call('load', () => answer.Body!.transformToByteArray()));
    const cached = { body, etag: answer.ETag ?? '', modified: answer.LastModified ?? new Date(0) };
    cache.set(key, cached);
    return cached;
  }

  /** Requests for a file being read into the cache wait for that one read (a page's visitors ask for the same thumbnails at once). */
  const reading = new Map<string, Promise<Cached | null>>();
  function readSmallOnce(key: string): Promise<Cached | null> {
    let pending = reading.get(key);
    if (!pending) {
      pending = readSmall(key).finally(() => reading.delete(key));
      reading.set(key, pending);
    }
    return pending;
  }

  async function deleteObject(objectName: string): Promise<void> {
    await call('store', () => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectName })));
  }

  async function uploadFile(file: string, key: string): Promise<void> {
    const { size } = await fsp.stat(file);
    const upload = uploadFromFile({ client, bucket, key: objectKey(key), path: file, partSize: opts.partSize ?? PART_SIZE, queueSize: opts.queueSize ?? QUEUE_SIZE });
    await call('store', async () => {
      try {
        await upload.finish(size);
      } catch (error) {
        await upload.abort().catch(() => {});
        throw error;
      }
    });
  }

  /**
   * A file arriving at `path` of the temporary area (`arrive` writes or takes it), sent to the bucket's
   * incoming folder part by part as it lands, and put in place by `commit` with a copy inside the
   * bucket. A failure leaves neither the local file nor the object.
   */
  async function toBucket(path: string, arrive: (upload: ReturnType<typeof uploadFromFile>) => Promise<ReceivedFile>): Promise<IncomingFile> {
    const incoming = `${prefix}${INCOMING}${path.slice(temp.root.length + 1).replaceAll('\\', '/')}`;
    const upload = uploadFromFile({ client, bucket, key: incoming, path, partSize: opts.partSize ?? PART_SIZE, queueSize: opts.queueSize ?? QUEUE_SIZE });
    let received: ReceivedFile | undefined;
    try {
      received = await arrive(upload);
      await upload.finish(received.size);
    } catch (error) {
      await upload.abort().catch(() => {});
      await deleteObject(incoming).catch(() => {});
      await fsp.rm(received?.path ?? path, { force: true });
      if (error instanceof MediaTooLargeError) throw error;
      throw unavailable('store', error) ?? error;
    }
    let pending = true;
    const file = received;
    return {
      size: file.size,
      head: file.head,
      sha256: file.sha256,
      path: file.path,
      async commit(key): Promise<StoredFile> {
        if (file.size <= COPY_MAX_BYTES) {
          await call('store', () => client.send(new CopyObjectCommand({ Bucket: bucket, Key: objectKey(key), CopySource: `${bucket}/${incoming}` })));
        } else {
          await uploadFile(file.path, key);
        }
        pending = false;
        await deleteObject(incoming).catch(() => {});
        await fsp.rm(file.path, { force: true });
        return { key, size: file.size };
      },
      async discard() {
        if (!pending) return;
        pending = false;
        await fsp.rm(file.path, { force: true });
        await deleteObject(incoming).catch(() => {});
      },
    } satisfies IncomingFile;
  }

  return {
    description: where,
    localFolder: null,

    async health() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
        return { ok: true };
      } catch (error) {
        return { ok: false, reason: reasonOf(error) };
      }
    },

    async receive(source, { maxBytes, signal }) {
      const path = temp.newPath();
      return toBucket(path, (upload) => temp.receive(source, { maxBytes, path, written: (onDisk) => upload.written(onDisk), ...(signal ? { signal } : {}) }));
    },

    async adopt(file, opts) {
      return toBucket(file, () => temp.adopt(file, opts));
    },

    resumableFolder: () => temp.resumableFolder(),

    async put(key, data) {
      await call('store', () => client.send(new PutObjectCommand({ Bucket: bucket, Key: objectKey(key), Body: data, ContentLength: data.length })));
      return { key, size: data.length };
    },

    async stat(key) {
      const found = await head(key);
      return found ? { size: found.size, modified: found.modified } : null;
    },

    read(key, range) {
      const out = new PassThrough();
      void getObject(key, range ? { Range: `bytes=${range.start}-${range.end}` } : {}).then(
        (answer) => {
          if (typeof answer === 'string') {
            const error = Object.assign(new Error(`No such file: ${key}`), { code: 'ENOENT' });
            out.destroy(error);
            return;
          }
          pipeline(answer.Body as Readable, out).catch((error: unknown) => out.destroy(error as Error));
        },
        (error: unknown) => out.destroy(error as Error),
      );
      return out;
    },

    async readBuffer(key) {
      const answer = await getObject(key);
      if (typeof answer === 'string') throw Object.assign(new Error(`No such file: ${key}`), { code: 'ENOENT' });
      return Buffer.from(await call('load', () => answer.Body!.transformToByteArray()));
    },

    async withLocalFile(key, use) {
      const answer = await getObject(key);
      if (typeof answer === 'string') throw Object.assign(new Error(`No such file: ${key}`), { code: 'ENOENT' });
      const copy = temp.newPath();
      try {
        await call('load', () => pipeline(answer.Body as Readable, fs.createWriteStream(copy, { flags: 'wx' })));
        return await use(copy);
      } finally {
        await fsp.rm(copy, { force: true });
      }
    },

    async list(folder) {
      const files: { key: string; size: number; modified: Date }[] = [];
      const inside = `${prefix}${assertMediaKey(folder)}/`;
      let token: string | undefined;
      do {
        const page = await call('load', () =>
          client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: inside, Delimiter: '/', ...(token ? { ContinuationToken: token } : {}) })),
        );
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(prefix.length) ?? '';
          if (isMediaKey(key)) files.push({ key, size: object.Size ?? 0, modified: object.LastModified ?? new Date(0) });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return files;
    },

    async *walk() {
      let token: string | undefined;
      do {
        const page = await call('load', () => client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) })));
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(prefix.length) ?? '';
          // The incoming folder and anything not ours (another site's prefix inside this one) are left out.
          if (isMediaKey(key)) yield { key, size: object.Size ?? 0, modified: object.LastModified ?? new Date(0) };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },

    async sweepTemporary(olderThanMs) {
      const cutoff = Date.now() - olderThanMs;
      let removed = await temp.sweep(olderThanMs);
      // What a crash left in the bucket: whole objects of uploads never committed...
      let token: string | undefined;
      do {
        const page = await call('load', () =>
          client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}${INCOMING}`, ...(token ? { ContinuationToken: token } : {}) })),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key && (object.LastModified?.getTime() ?? 0) < cutoff) {
            await deleteObject(object.Key);
            removed++;
          }
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      // ...and multipart uploads never completed (a store without the listing relies on its lifecycle rule: docs/storage.md).
      try {
        const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: `${prefix}${INCOMING}` }));
        for (const upload of uploads.Uploads ?? []) {
          if (upload.Key && upload.UploadId && (upload.Initiated?.getTime() ?? 0) < cutoff) {
            await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }));
            removed++;
          }
        }
      } catch (error) {
        if (statusOf(error) !== 501) throw unavailable('load', error) ?? error;
      }
      return removed;
    },

    async delete(key) {
      cache.delete(key);
      await deleteObject(objectKey(key));
    },

    tempDir: (prefixName) => temp.tempDir(prefixName),

    async send(req, reply, key, sendOpts = {}) {
      if (!isMediaKey(key)) return reply.code(404).send({ message: 'No such file' });
      try {
        if (sendOpts.immutable && !sendOpts.rewrite) {
          const cached = cache.get(key) ?? (await readSmallOnce(key));
          if (cached) return sendCached(req, reply, key, sendOpts, cached);
        }
        return await sendObject(req, reply, key, sendOpts, { getObject, head });
      } catch (error) {
        // Said here, not left to the caller's error handler: a page must get words and a retry hint, never a 500.
        if (!(error instanceof MediaUnavailableError) || reply.sent) throw error;
        return reply.code(503).header('retry-after', '30').header('cache-control', 'no-store').send({ message: error.message });
      }
    },
  };
}

type Fetchers = {
  getObject(key: string, extra?: { Range?: string; IfNoneMatch?: string; IfModifiedSince?: Date }): Promise<GetObjectCommandOutput | 'missing' | 'not-modified' | 'bad-range'>;
  head(key: string): Promise<{ size: number; modified: Date; etag: string } | null>;
};

/**
 * Answers a GET/HEAD with an object streamed through this server, with the local store's headers.
 * Through, not by a redirect to a presigned address: a presigned address keeps working until it
 * expires, whoever holds it, while here every request (every Range of a video) passes the access
 * check, so a revoked share link or a signed-out member gets nothing more at once; and the bucket
 * stays private and unreachable from outside. One request to the store per answer in the usual
 * cases (a whole file, one range, a revalidation).
 */
async function sendObject(req: FastifyRequest, reply: FastifyReply, key: string, opts: SendOptions, store: Fetchers): Promise<FastifyReply> {
  const headers = req.headers;
  const rewriteTag = opts.rewrite?.tag;
  const ifNoneMatch = typeof headers['if-none-match'] === 'string' ? stripTag(headers['if-none-match'], rewriteTag) : undefined;
  const ifModifiedSince = typeof headers['if-modified-since'] === 'string' && !ifNoneMatch ? new Date(headers['if-modified-since']) : undefined;
  let range = parseRange(typeof headers.range === 'string' ? headers.range : undefined);
  // A suffix range, several ranges or If-Range need the object's size or tag first.
  if (range && (range.kind !== 'from' || headers['if-range'] !== undefined)) {
    const found = await store.head(key);
    if (!found) return reply.code(404).send({ message: 'No such file' });
    const ifRange = headers['if-range'];
    if (typeof ifRange === 'string' && stripTag(ifRange, rewriteTag) !== found.etag && new Date(ifRange).getTime() !== Math.floor(found.modified.getTime() / 1000) * 1000) {
      range = null;
    } else if (range.kind === 'suffix') {
      range = { kind: 'from', start: Math.max(0, found.size - range.length), end: found.size - 1 };
      if (found.size === 0) return unsatisfiable(reply, 0);
    } else if (range.kind === 'many') {
      range = null; // RFC 9110 lets a server answer several ranges with the whole file.
    }
  }
  const request = {
    ...(range?.kind === 'from' ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
    ...(ifNoneMatch ? { IfNoneMatch: ifNoneMatch } : {}),
    ...(ifModifiedSince && !Number.isNaN(ifModifiedSince.getTime()) ? { IfModifiedSince: ifModifiedSince } : {}),
  };
  if (req.method === 'HEAD') {
    const found = await store.head(key);
    if (!found) return reply.code(404).send({ message: 'No such file' });
    setHeaders(reply, key, opts, { etag: found.etag, modified: found.modified });
    if (ifNoneMatch && (ifNoneMatch === '*' || ifNoneMatch.split(/\s*,\s*/).includes(found.etag))) return reply.code(304).send();
    // An empty stream: Fastify then keeps the Content-Length given (the file's), as HEAD wants.
    return reply.code(200).header('content-length', found.size).send(Readable.from([]));
  }
  const answer = await store.getObject(key, request);
  if (answer === 'missing') return reply.code(404).send({ message: 'No such file' });
  if (answer === 'bad-range') {
    const found = await store.head(key);
    if (!found) return reply.code(404).send({ message: 'No such file' });
    return unsatisfiable(reply, found.size);
  }
  if (answer === 'not-modified') {
    setHeaders(reply, key, opts, { etag: ifNoneMatch && ifNoneMatch !== '*' ? ifNoneMatch : null, modified: null });
    return reply.code(304).send();
  }
  const body = answer.Body as Readable;
  setHeaders(reply, key, opts, { etag: answer.ETag ?? null, modified: answer.LastModified ?? null });
  reply.header('content-length', answer.ContentLength ?? 0);
  let status = 200;
  let start = 0;
  if (answer.ContentRange && range) {
    status = 206;
    reply.header('content-range', answer.ContentRange);
    start = Number(/^bytes (\d+)-/.exec(answer.ContentRange)?.[1] ?? 0);
  }
  reply.code(status);
  if (opts.rewrite) return reply.send(opts.rewrite.transform(body, start));
  return reply.send(body);
}

/** Answers from a file kept in memory, with the same rules as sendObject (conditional requests, one range, HEAD). */
function sendCached(req: FastifyRequest, reply: FastifyReply, key: string, opts: SendOptions, cached: Cached): FastifyReply {
  const size = cached.body.length;
  const ifNoneMatch = req.headers['if-none-match'];
  if (typeof ifNoneMatch === 'string' && (ifNoneMatch === '*' || ifNoneMatch.split(/\s*,\s*/).includes(cached.etag))) {
    setHeaders(reply, key, opts, { etag: cached.etag, modified: cached.modified });
    return reply.code(304).send();
  }
  const ifRange = req.headers['if-range'];
  let range = typeof ifRange === 'string' && ifRange !== cached.etag ? null : parseRange(typeof req.headers.range === 'string' ? req.headers.range : undefined);
  if (range?.kind === 'suffix') range = { kind: 'from', start: Math.max(0, size - range.length), end: size - 1 };
  if (range?.kind === 'many') range = null;
  if (range?.kind === 'from' && range.start >= size) return unsatisfiable(reply, size);
  setHeaders(reply, key, opts, { etag: cached.etag, modified: cached.modified });
  let body = cached.body;
  if (range?.kind === 'from') {
    const end = Math.min(range.end ?? size - 1, size - 1);
    body = cached.body.subarray(range.start, end + 1);
    reply.code(206).header('content-range', `bytes ${range.start}-${end}/${size}`);
  } else {
    reply.code(200);
  }
  reply.header('content-length', body.length);
  return reply.send(req.method === 'HEAD' ? Readable.from([]) : body);
}

function setHeaders(reply: FastifyReply, key: string, opts: SendOptions, found: { etag: string | null; modified: Date | null }): void {
  reply.header('accept-ranges', 'bytes');
  reply.header('content-type', opts.contentType ?? contentTypeOf(key));
  if (found.etag) reply.header('etag', opts.rewrite ? found.etag.replace(/"$/, `-${opts.rewrite.tag}"`) : found.etag);
  if (found.modified) reply.header('last-modified', found.modified.toUTCString());
  if (opts.noStore) reply.header('cache-control', 'private, no-store');
  else if (!opts.immutable) reply.header('cache-control', 'private, no-cache');
  else reply.header('cache-control', `private, max-age=${YEAR_SECONDS}, immutable`);
  reply.header('x-content-type-options', 'nosniff');
  if (opts.csp) reply.header('content-security-policy', opts.csp);
  if (opts.downloadName) reply.header('content-disposition', contentDisposition(opts.downloadName));
}

function unsatisfiable(reply: FastifyReply, size: number): FastifyReply {
  return reply.code(416).header('content-range', `bytes */${size}`).send({ message: 'Range not satisfiable' });
}

/** The type a file is served as when the caller names none: from its extension, as the local store does. */
function contentTypeOf(key: string): string {
  const type = send.mime.getType(key) ?? 'application/octet-stream';
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}

/** An entity tag as the store knows it: without the suffix a rewritten answer adds (see SendOptions.rewrite). */
function stripTag(tag: string, rewriteTag: string | undefined): string {
  return rewriteTag ? tag.replace(new RegExp(`-${rewriteTag.replace(/[^A-Za-z0-9]/g, '\\$&')}"$`), '"') : tag;
}

type ParsedRange = { kind: 'from'; start: number; end: number | null } | { kind: 'suffix'; length: number } | { kind: 'many' } | null;

/** One `bytes=` range (first-last, first-, or -suffix); anything else is no range (the whole file). */
export function parseRange(header: string | undefined): ParsedRange {
  if (!header?.startsWith('bytes=')) return null;
  const parts = header.slice(6).split(',').map((p) => p.trim());
  if (parts.length > 1) return { kind: 'many' };
  const match = /^(\d*)-(\d*)$/.exec(parts[0] ?? '');
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') return Number(last) > 0 ? { kind: 'suffix', length: Number(last) } : null;
  const start = Number(first);
  const end = last === '' ? null : Number(last);
  if (end !== null && end < start) return null;
  return { kind: 'from', start, end };
}

function statusOf(error: unknown): number | undefined {
  if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode;
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * The store is down, unreachable, or refuses our credentials or bucket: a MediaUnavailableError
 * (503 with words). Null for anything else (a missing key, our own mistake), which goes on as it is.
 */
function unavailable(doing: 'store' | 'load', error: unknown): MediaUnavailableError | null {
  if (error instanceof MediaUnavailableError) return error;
  if (error instanceof MediaTooLargeError) return null;
  const status = statusOf(error);
  const named = error as { code?: string; name?: string } | null;
  const network = NETWORK_CODES.has(named?.code ?? '') || named?.name === 'TimeoutError' || named?.name === 'RequestTimeout';
  const refused = status === 403 || (status !== undefined && status >= 500) || named?.name === 'NoSuchBucket' || named?.name === 'InvalidAccessKeyId';
  return network || refused ? new MediaUnavailableError(doing, reasonOf(error)) : null;
}

function reasonOf(error: unknown): string {
  const status = statusOf(error);
  const named = error as { code?: string; name?: string; message?: string } | null;
  const what = named?.code ?? named?.name ?? 'Error';
  const message = named?.message && named.message !== what ? `: ${named.message}` : '';
  return `${what}${status ? ` (HTTP ${status})` : ''}${message}`.slice(0, 300);
}
