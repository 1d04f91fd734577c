import { createHash, randomBytes, type Hash } from 'node:crypto';
import fsp from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { ERRORS, Server, StreamLimiter, type CancellationContext, type DataStore, type ServerOptions, type Upload } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { accessMessages, pictureMessages, RESUMABLE_ABANDONED_MS, resumableMessages } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError, httpStatus } from '../../errors.ts';
import { fileSink, formatBytes, MediaTooLargeError, type IncomingFile } from '../../media/index.ts';

/**
 * Resumable uploads (tus 1.0.0, @tus/server with @tus/file-store): a file sent in as many PATCHes as
 * the connection needs, each going on from the offset the server holds, its parts kept in the media
 * store's temporary area (MediaStorage.resumableFolder). When the last byte is in, the whole file
 * enters the same pipeline as a one-request upload (pictures.http.ts storeReceived: type from the
 * bytes, caps, duplicates, approval, jobs), through the door that created it:
 * - members at /uploads/ (the permission table's rows, as the one-request upload),
 * - a guest upload link's holder at /api/shared/:token/uploads/ (albums/shares.http.ts).
 * An upload is its maker's: its id is asked for with the maker's key (`member:12`, `link:5`) and
 * anyone else gets 404, as for an id that does not exist. An upload nothing has written to for
 * RESUMABLE_ABANDONED_MS (a day) is removed by `sweep`.
 */

/** One door of the resumable uploads: whose uploads it holds, how large a file may be, and the pipeline's end. */
export type ResumableDoor = {
  /** The maker's key, kept with each upload it creates: only the same key reaches it again. */
  owner: string;
  /** The largest file this door takes now (checked at creation, 413, and again when whole). */
  maxBytes: number;
  /** Refuses a creation (a throttle, a link's caps) before any byte is kept; throws an AppError. */
  allowCreate?: () => Promise<void>;
  /** The whole file and the fields its creation named, into the pipeline; what the page is told (JSON). */
  finish(file: IncomingFile, fields: Readonly<Record<string, string>>): Promise<unknown>;
};

/** The metadata key that holds the maker (never taken from the client: creation overwrites it). */
const OWNER_KEY = 'site-owner';
/** Fields a client may name at creation (tus Upload-Metadata), passed to the pipeline as a form's fields. */
const FIELDS = ['caption', 'date', 'name', 'filename', 'filetype'] as const;
const ID = /^[0-9a-f]{32}$/;

/**
 * The file store, each PATCH's bytes written as the one-request upload writes its file (media's
 * fileSink: the chunks waiting go to the disk in one call, up to 1 MiB; @tus/file-store's own write
 * stream makes a call per 64 KiB chunk), with each upload's SHA-256 taken as its parts arrive (in
 * this process's memory), so a finished upload is not read again to hash it. A hash that missed
 * bytes (a write that failed, a restart, another instance) is dropped and the file is hashed from
 * the disk when whole.
 */
class HashingFileStore extends FileStore {
  readonly hashes = new Map<string, { hash: Hash; offset: number }>();

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const known = this.hashes.get(id);
    const state = known && known.offset === offset ? known : offset === 0 ? { hash: createHash('sha256'), offset: 0 } : null;
    this.hashes.delete(id);
    let counted = 0;
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        counted += chunk.length;
        state?.hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      // The part's file exists from the creation: written from `offset` on (the ID is checked: no path in it).
      await pipeline(readable, hashing, fileSink(path.join(this.directory, id), { start: offset }));
    } catch {
      // As @tus/file-store says it; what reached the disk stays, and the upload's offset is its size.
      throw ERRORS.FILE_WRITE_ERROR;
    }
    const written = offset + counted;
    if (state) this.hashes.set(id, { hash: state.hash, offset: written });
    return written;
  }

  /** The SHA-256 of a whole upload of `size` bytes, when every byte passed through `write` here. */
  sha256Of(id: string, size: number): string | undefined {
    const state = this.hashes.get(id);
    this.hashes.delete(id);
    return state && state.offset === size ? state.hash.digest('hex') : undefined;
  }

  /** Removes an upload's parts and record, whatever is left of them. */
  async forget(id: string): Promise<void> {
    this.hashes.delete(id);
    await fsp.rm(path.join(this.directory, id), { force: true });
    await this.configstore.delete(id).catch(() => {});
  }
}

type PatchHandler = Server['handlers']['PATCH'];
/** tus's answer (undici's Response in its types, whatever the globals of the program compiling this). */
type TusAnswer = Awaited<ReturnType<Server['handleWeb']>>;

/** The Node request a tus request came from (`runtime.node`, as srvx and `webRequestOf` below set it). */
const nodeRequestOf = (req: Request): IncomingMessage | undefined => (req as { runtime?: { node?: { req: IncomingMessage } } }).runtime?.node?.req;

/**
 * tus's own PATCH handler (offsets, 409, lengths, 413, the lock, the finish hook), its body read
 * from the Node request itself. @tus/server 2.x hands every handler a web Request (srvx: the Node
 * request through Readable.toWeb) and its writeToStore turns the body back into a Node stream
 * (Readable.fromWeb) on the way to the store: measured, that was about half the server's CPU per
 * byte of a PATCH (docs/benchmarks.md, bench:resumable). Here a PATCH reaches tus as a web
 * Request without a body (`webRequestOf`), and the handler pipes the Node request to the store as
 * tus's writeToStore pipes its stream: through a proxy that a dropped connection ends rather than
 * fails, so the bytes that arrived are kept and the next PATCH goes on from them.
 */
function nodeBodyPatchHandler(tus: Server): PatchHandler {
  // The class is not exported by the package: it is taken from the handler tus made.
  const Base = tus.handlers.PATCH.constructor as new (store: DataStore, options: ServerOptions) => PatchHandler;
  class NodeBodyPatchHandler extends Base {
    readonly #bodies = new WeakMap<CancellationContext, IncomingMessage>();

    override send(...args: Parameters<PatchHandler['send']>): ReturnType<PatchHandler['send']> {
      const [req, context] = args;
      const node = nodeRequestOf(req);
      if (node && req.body === null) this.#bodies.set(context, node);
      return super.send(...args);
    }

    protected override async writeToStore(body: ReadableStream | null, upload: Upload, maxFileSize: number, context: CancellationContext): Promise<number> {
      const source = this.#bodies.get(context);
      if (!source) return super.writeToStore(body, upload, maxFileSize, context);
      if (context.signal.aborted) throw ERRORS.ABORTED;
      const proxy = new PassThrough();
      let sourceError: unknown = null;
      const onError = (error: unknown) => {
        sourceError = error;
        source.unpipe(proxy);
        // A dropped connection aborts the context first (the server's listener): the proxy ends below.
        if (!context.signal.aborted) proxy.destroy(error as Error);
      };
      const onAbort = () => {
        source.unpipe(proxy);
        if (!proxy.destroyed) proxy.end();
      };
      source.on('error', onError);
      context.signal.addEventListener('abort', onAbort, { once: true });
      try {
        // A function at the end of a pipeline is given the stream before it (the limiter, a Readable).
        return await pipeline(source.pipe(proxy), new StreamLimiter(maxFileSize), (limited: AsyncIterable<Buffer>) => this.store.write(limited as Readable, upload.id, upload.offset));
      } catch (error) {
        source.unpipe(proxy);
        throw (sourceError !== null && error === sourceError) || (error instanceof Error && error.name === 'AbortError') ? ERRORS.ABORTED : error;
      } finally {
        source.off('error', onError);
        context.signal.removeEventListener('abort', onAbort);
      }
    }
  }
  return new NodeBodyPatchHandler(tus.datastore, tus.options);
}

/** A Node request as the web Request tus reads, without its body (left on `req` for the PATCH handler above). */
function webRequestOf(req: IncomingMessage, res: ServerResponse): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const request = new Request(new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`), { method: req.method ?? 'GET', headers });
  return Object.assign(request, { runtime: { name: 'node', node: { req, res } } });
}

/** Writes tus's answer (a short text body at most) to the Node response. */
async function sendAnswer(res: ServerResponse, answer: TusAnswer): Promise<void> {
  const body = Buffer.from(await answer.arrayBuffer());
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  res.writeHead(answer.status);
  res.end(body);
}

/**
 * A tus PATCH's body (application/offset+octet-stream) is left unread for tus to stream to the disk;
 * registered in the scopes of the areas that take resumable uploads.
 */
export const tusBodies = fp(async (scope) => {
  scope.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null));
});

export type ResumableUploads = ReturnType<typeof createResumableUploads>;

const instances = new WeakMap<AppDeps, ResumableUploads>();

/** The process's resumable uploads for these deps: one store and one tus server, shared by every door. */
export function resumableUploads(deps: AppDeps): ResumableUploads {
  let found = instances.get(deps);
  if (!found) {
    found = createResumableUploads(deps);
    instances.set(deps, found);
  }
  return found;
}

export function createResumableUploads(deps: AppDeps) {
  const directory = deps.media.resumableFolder();
  const store = new HashingFileStore({ directory });
  /** The door of each request being handled, for the tus hooks (which see only the request). */
  const doors = new WeakMap<IncomingMessage, ResumableDoor>();
  const doorOf = (req: Request): ResumableDoor => {
    const node = nodeRequestOf(req);
    const door = node && doors.get(node);
    if (!door) throw new Error('a resumable upload request without its door');
    return door;
  };

  const tus = new Server({
    path: '/uploads',
    datastore: store,
    // Same origin only: no CORS answer at all.
    allowedOrigins: [],
    namingFunction: () => randomBytes(16).toString('hex'),
    // The upload's URL is under the collection it was created at (/uploads/ or a link's).
    generateUrl: (req, { id }) => `${new URL(req.url).pathname.replace(/\/?$/, '/')}${id}`,
    getFileIdFromRequest: (_req, last) => (last !== undefined && ID.test(last) ? last : undefined),
    maxSize: (req) => doorOf(req).maxBytes,
    async onUploadCreate(req, upload) {
      const metadata: Record<string, string> = {};
      for (const key of FIELDS) {
        const value = upload.metadata?.[key];
        if (typeof value === 'string') metadata[key] = value;
      }
      return { metadata: { ...metadata, [OWNER_KEY]: doorOf(req).owner } };
    },
    async onUploadFinish(req, upload) {
      const door = doorOf(req);
      const fields: Record<string, string> = {};
      for (const key of FIELDS) {
        const value = upload.metadata?.[key];
        if (typeof value === 'string') fields[key] = value;
      }
      try {
        const sha256 = store.sha256Of(upload.id, upload.size ?? -1);
        const file = await deps.media.adopt(path.join(directory, upload.id), { maxBytes: door.maxBytes, ...(sha256 ? { sha256 } : {}) });
        const answer = await door.finish(file, fields);
        return { status_code: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(answer) };
      } catch (error) {
        const { status, message } = refusalOf(error, door.maxBytes);
        if (status >= 500) console.error('site: a resumable upload could not be stored', error);
        throw { status_code: status, body: JSON.stringify({ message }) };
      } finally {
        // Whole, it was committed or refused: nothing of it stays to be resumed.
        await store.forget(upload.id);
      }
    },
  });
  tus.handlers.PATCH = nodeBodyPatchHandler(tus);

  return {
    directory,

    /**
     * Answers one tus request (POST to the collection, HEAD, PATCH or DELETE of an upload) for `door`.
     * An upload of another maker, or none, is 404 before tus sees the request; a creation over the
     * door's cap is 413 with the pipeline's words; a creation without its length is refused (the cap
     * is checked at creation).
     */
    async handle(req: FastifyRequest, reply: FastifyReply, door: ResumableDoor): Promise<FastifyReply> {
      const id = (req.params as { id?: string }).id;
      if (id !== undefined) {
        const info = ID.test(id) ? await store.configstore.get(id).catch(() => undefined) : undefined;
        if (!info || info.metadata?.[OWNER_KEY] !== door.owner) throw new AppError('NOT_FOUND', resumableMessages.notFound);
      } else {
        const length = req.headers['upload-length'];
        if (typeof length !== 'string' || !/^\d{1,16}$/.test(length)) throw new AppError('BAD_REQUEST', resumableMessages.lengthNeeded);
        if (Number(length) > door.maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', pictureMessages.tooBig(formatBytes(door.maxBytes)));
        await door.allowCreate?.();
      }
      doors.set(req.raw, door);
      // tus writes the answer itself: the headers set so far (security headers, a renewed session cookie) go with it.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
      reply.hijack();
      if (req.method === 'PATCH') await sendAnswer(reply.raw, await tus.handleWeb(webRequestOf(req.raw, reply.raw)));
      else await tus.handle(req.raw, reply.raw);
      return reply;
    },

    /**
     * Removes the uploads nothing has written to for RESUMABLE_ABANDONED_MS (their parts and record),
     * and parts without a record as old; the number removed. `now` is for tests.
     */
    async sweep(now = Date.now()): Promise<number> {
      const cutoff = now - RESUMABLE_ABANDONED_MS;
      const names = await fsp.readdir(directory).catch(() => [] as string[]);
      const ids = new Set(names.map((name) => name.replace(/\.json$/, '')).filter((name) => ID.test(name)));
      let removed = 0;
      for (const id of ids) {
        const times = await Promise.all(
          [id, `${id}.json`].map((name) =>
            fsp.stat(path.join(directory, name)).then(
              (stat) => stat.mtimeMs,
              () => 0,
            ),
          ),
        );
        if (Math.max(...times) < cutoff) {
          await store.forget(id);
          removed++;
        }
      }
      return removed;
    },
  };
}

function refusalOf(error: unknown, maxBytes: number): { status: number; message: string } {
  if (error instanceof AppError) return { status: httpStatus[error.code], message: error.message };
  if (error instanceof MediaTooLargeError) return { status: 413, message: pictureMessages.tooBig(formatBytes(maxBytes)) };
  return { status: 500, message: accessMessages.internal };
}
