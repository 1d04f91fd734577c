import { randomBytes } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { captionSchema, parseCaptureDate, pictureLink, pictureMessages, showsInBrowser, type CaptureDate, type UploadAnswer, type UploadReply } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { HttpRegistrar } from '../../http/routes.ts';
import type { Executor } from '../../db/database.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { formatBytes, MediaTooLargeError, type IncomingFile } from '../../media/index.ts';
import { originalKey, parseFileName, removePictureFiles, variantKey } from './pictures.files.ts';
import { monthPageOf } from './pictures.layout.ts';
import { fileCaptureDate, sniff } from './pictures.media.ts';
import * as repo from './pictures.repository.ts';
import type { PictureRecord } from './pictures.tables.ts';
import { galleryChanged } from './pictures.page-cache.ts';
import { toPicture } from './pictures.service.ts';
import { nudgeWorker } from './pictures.worker.ts';
import { resumableUploads, tusBodies, type ResumableDoor } from './pictures.resumable.ts';

export { resumableUploads, tusBodies, type ResumableDoor } from './pictures.resumable.ts';

/** Room for the form's other fields and the multipart framing on top of the file itself. */
const FRAMING_BYTES = 1024 * 1024;

type Received = { file: IncomingFile | null; fields: Record<string, string> };

/** Reads the multipart body: the one file streamed into the store's temporary area, the fields kept. */
async function receive(req: FastifyRequest, deps: AppDeps, maxBytes: number): Promise<Received> {
  const fields: Record<string, string> = {};
  let file: IncomingFile | null = null;
  // A client that goes away mid-upload ends the body without an error on some paths: stop then.
  const abort = new AbortController();
  const onClose = () => {
    if (!req.raw.readableEnded) abort.abort(new Error('client closed the connection'));
  };
  req.raw.once('close', onClose);
  try {
    const parts = req.parts({ limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 10_000, parts: 12 } });
    for await (const part of parts) {
      if (part.type === 'file') {
        file = await deps.media.receive(part.file, { maxBytes, signal: abort.signal });
        if (part.file.truncated) throw new MediaTooLargeError(maxBytes);
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
    return { file, fields };
  } catch (error) {
    await file?.discard();
    throw uploadError(error, maxBytes);
  } finally {
    req.raw.off('close', onClose);
  }
}

function uploadError(error: unknown, maxBytes: number): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof MediaTooLargeError) return new AppError('PAYLOAD_TOO_LARGE', pictureMessages.tooBig(formatBytes(maxBytes)));
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('PAYLOAD_TOO_LARGE', pictureMessages.tooBig(formatBytes(maxBytes)));
  if (code === 'FST_FILES_LIMIT') return new AppError('BAD_REQUEST', pictureMessages.oneFile);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return new AppError('BAD_REQUEST', 'The form has too many fields');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new AppError('UNSUPPORTED_MEDIA_TYPE', pictureMessages.notMultipart);
  // The body ended early: the browser cancelled, or the connection broke.
  return new AppError('BAD_REQUEST', pictureMessages.broken);
}

/**
 * Who an upload is stored for: a member (their id, approved at once from level 2), or a guest of an
 * upload link (no account, always pending). `inTransaction` runs in the transaction that writes the
 * new picture's row, before its file is put in place: a guest link's caps and its own rows are kept
 * there, and a refusal from it stores nothing.
 */
export type UploadOwner = {
  userId: number | null;
  approved: boolean;
  uploaderName: string | null;
  inTransaction?: (trx: Executor, row: PictureRecord, fields: Readonly<Record<string, string>>) => Promise<void>;
};

/** The pipeline's result: the new picture, or the oldest picture that already holds these bytes. */
export type StoredUpload = { duplicate: boolean; row: repo.PictureRow };

/**
 * POST /api/pictures/upload (multipart: the file, caption, date). The file streams into a temporary
 * file (its SHA-256 taken on the way) and, once whole and its bytes say it is a picture or video the
 * gallery shows, is renamed into place inside the transaction that writes its row and thumbnail
 * job: a crash before the commit leaves a file no row names (removed at the next start), never a
 * row without its file. Bytes already stored (approved or waiting for approval) store nothing new:
 * the answer is that picture, 'Already in the gallery' and a link to it, or, when it is another
 * member's picture waiting for approval, only that it waits (nothing of its content). A refusal or an
 * interrupted upload leaves no file and no row.
 */
async function upload(req: FastifyRequest, deps: AppDeps, user: SessionUser): Promise<UploadReply> {
  return replyTo(deps, user, await storeUpload(req, deps, memberOwner(user)));
}

/** A member's uploads: theirs, approved at once from level 2. */
const memberOwner = (user: SessionUser): UploadOwner => ({ userId: user.id, approved: user.level >= 2, uploaderName: user.name });

/** What a member is told of a stored upload, by either door. */
async function replyTo(deps: AppDeps, user: SessionUser, stored: StoredUpload): Promise<UploadReply> {
  if (stored.duplicate) {
    // Another member's picture still waiting for approval is theirs alone: say only that it waits.
    if (!mayView(user, stored.row)) return { duplicate: true, pending: true, message: pictureMessages.duplicateWaiting, link: null };
    return answer(deps, user, stored.row, pictureMessages.duplicate, true);
  }
  return answer(deps, user, stored.row, stored.row.status === 'pending' ? pictureMessages.pendingNote : 'Uploaded', false);
}

/**
 * The upload pipeline of members and guests alike (limits, type from the bytes, duplicates, the
 * background job): see `upload` above.
 */
export async function storeUpload(req: FastifyRequest, deps: AppDeps, owner: UploadOwner, maxBytes = deps.config.mediaMaxBytes): Promise<StoredUpload> {
  if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', pictureMessages.notMultipart);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + FRAMING_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', pictureMessages.tooBig(formatBytes(maxBytes)));
  }
  const { file, fields } = await receive(req, deps, maxBytes);
  if (!file) throw new AppError('BAD_REQUEST', pictureMessages.noFile);
  return storeReceived(deps, file, fields, owner);
}

/**
 * The pipeline from a file received whole into the store's temporary area, with the form's fields
 * (caption, date, a guest's name): every door ends here (the one-request upload above, a resumable
 * upload once its last part is in: pictures.resumable.ts, a file `npm run pictures -- import` streamed
 * in: pictures.import.ts). Caption and date fields, the type from its bytes, dedupe by content, the row,
 * its job; the file is committed or discarded, never left behind. `dateWhenNone` is the date used when
 * neither the fields nor the file itself give one (a takeout's sidecar).
 */
export async function storeReceived(deps: AppDeps, file: IncomingFile, fields: Readonly<Record<string, string>>, owner: UploadOwner, opts: { dateWhenNone?: CaptureDate | null } = {}): Promise<StoredUpload> {
  // Set once the file is in place, so a failure afterwards (the commit itself) removes it again.
  const committed: { stem?: string; ext?: string } = {};
  try {
    if (file.size === 0) throw new AppError('BAD_REQUEST', pictureMessages.noFile);
    const caption = captionSchema.safeParse(fields.caption ?? fields.desc ?? '');
    if (!caption.success) throw new AppError('BAD_REQUEST', caption.error.issues[0]?.message ?? 'Caption is not valid');
    const typed = parseCaptureDate(fields.date ?? '');
    if (typed === undefined) throw new AppError('BAD_REQUEST', pictureMessages.badDate);
    const type = await sniff(file);
    if (!type.ok) throw new AppError('UNSUPPORTED_MEDIA_TYPE', pictureMessages.wrongBytes(type.found));
    const date: CaptureDate = typed ?? (await fileCaptureDate(file.path)) ?? opts.dateWhenNone ?? { year: 0, month: 0, day: 0 };

    const stem = randomBytes(16).toString('hex');
    const stored = await deps.db.transaction().execute(async (trx) => {
      await repo.lockHash(trx, file.sha256);
      const existing = await repo.findBySha256(trx, file.sha256);
      if (existing) return { duplicate: true as const, row: existing };
      const row = await repo.insertPicture(trx, {
        stem,
        file_type: type.ext,
        mime: type.mime,
        size_bytes: file.size,
        sha256: file.sha256,
        caption: caption.data,
        year: date.year,
        month: date.month,
        day: date.day,
        status: owner.approved ? 'approved' : 'pending',
        uploaded_by: owner.userId,
      });
      await owner.inTransaction?.(trx, row, fields);
      await file.commit(originalKey(stem, type.ext));
      Object.assign(committed, { stem, ext: type.ext });
      return { duplicate: false as const, row: { ...row, uploader: owner.uploaderName } };
    });
    if (stored.duplicate) {
      await file.discard();
      return stored;
    }
    galleryChanged(deps.db);
    nudgeWorker(deps);
    return stored;
  } catch (error) {
    await file.discard();
    if (committed.stem && committed.ext) await removePictureFiles(deps, committed.stem, committed.ext);
    throw error;
  }
}

/** A pending picture is seen only by its uploader and admins. */
function mayView(user: SessionUser, row: Pick<repo.PictureRow, 'status' | 'uploaded_by'>): boolean {
  return row.status === 'approved' || user.level >= 3 || row.uploaded_by === user.id;
}

async function answer(deps: AppDeps, user: SessionUser, row: repo.PictureRow, message: string, duplicate: boolean): Promise<UploadAnswer> {
  const looker = { id: user.id, admin: user.level >= 3 };
  const page = await monthPageOf(deps.db, looker, row);
  return { ...toPicture(row), message, duplicate, link: pictureLink(page, row.id) };
}

/**
 * GET /private/pictures/:file — a picture's original or a derived WebP, to members who may see it
 * (a pending picture only to its uploader and admins; anyone else gets 404, as for a name that
 * does not exist). Range requests (206) for seeking. An approved picture's thumbnail, display size and
 * poster are cached for a year (names never change); originals and anything pending: `private, no-store`.
 */
async function serve(req: FastifyRequest, reply: Parameters<Parameters<HttpRegistrar['route']>[1]>[1], deps: AppDeps, user: SessionUser) {
  const name = (req.params as { file?: string }).file ?? '';
  const parsed = parseFileName(name);
  const row = parsed ? await repo.findByStem(deps.db, parsed.stem) : undefined;
  const visible = row && mayView(user, row);
  if (!parsed || !row || !visible || (parsed.variant === null && parsed.ext !== row.file_type)) {
    throw new AppError('NOT_FOUND', 'No such file');
  }
  // An approved picture's previews may stay in the browser's cache; a pending picture and every
  // original are not kept, so a shared browser holds none of them after sign-out.
  if (parsed.variant) {
    return deps.media.send(req, reply, variantKey(row.stem, parsed.variant), { contentType: 'image/webp', immutable: true, noStore: row.status === 'pending' });
  }
  const type = row.file_type;
  return deps.media.send(req, reply, originalKey(row.stem, type), {
    contentType: row.mime,
    noStore: true,
    // An SVG opened on its own must not run script or reach anything.
    ...(type === 'svg' ? { csp: "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:" } : {}),
    // What browsers cannot show (PSD, HEIC, TIFF, ...) is offered as a download under its caption.
    ...(showsInBrowser(type) ? {} : { downloadName: `${row.caption.trim() || row.stem}.${type}` }),
  });
}

/** A member's door of the resumable uploads (pictures.resumable.ts): the same pipeline and answer as `upload`. */
function memberDoor(deps: AppDeps, user: SessionUser): ResumableDoor {
  return {
    owner: `member:${user.id}`,
    maxBytes: deps.config.mediaMaxBytes,
    finish: async (file, fields) => replyTo(deps, user, await storeReceived(deps, file, fields, memberOwner(user))),
  };
}

export async function picturesHttp(routes: HttpRegistrar, deps: AppDeps): Promise<void> {
  await routes.register(fastifyMultipart, { throwFileSizeLimit: true });
  await routes.register(tusBodies, {});
  routes.route('POST /api/pictures/upload', (req, _reply, { user }) => upload(req, deps, user));
  const resumable = resumableUploads(deps);
  const tus = (req: FastifyRequest, reply: FastifyReply, user: SessionUser) => resumable.handle(req, reply, memberDoor(deps, user));
  routes.route('POST /uploads/', (req, reply, { user }) => tus(req, reply, user));
  routes.route('HEAD /uploads/:id', (req, reply, { user }) => tus(req, reply, user));
  routes.route('PATCH /uploads/:id', (req, reply, { user }) => tus(req, reply, user));
  routes.route('DELETE /uploads/:id', (req, reply, { user }) => tus(req, reply, user));
  routes.route('GET /private/pictures/:file', (req, reply, { user }) => serve(req, reply, deps, user));
}
