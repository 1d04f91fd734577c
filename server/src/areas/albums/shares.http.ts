import fastifyMultipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { albumMessages, guestNameSchema, showsInBrowser, UPLOAD_LINK_MAX_BYTES, UPLOAD_LINK_MAX_FILES, type GuestUploadReply } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { HttpRegistrar } from '../../http/routes.ts';
import { limitKey } from '../../identity/limits.ts';
import { guestCopy, originalKey, parseFileName, resumableUploads, storeReceived, storeUpload, tusBodies, variantKey, type ResumableDoor, type StoredUpload, type UploadOwner } from '../pictures/pictures.port.ts';
import * as repo from './albums.repository.ts';
import { isLive, liveLink, passMatches } from './shares.service.ts';

type Params = { token?: string; file?: string };

/**
 * GET /api/shared/:token/:file[?pass=] — a file of a shared album to a guest: its original (to
 * download) or a derived WebP, only while the link works and only for an approved picture of that
 * album. The original comes without where it was taken (EXIF GPS, XMP, a video's position:
 * pictures.location.ts) unless the link was made with "Include location", and always without the
 * personal EXIF and XMP fields (owner, artist, serial numbers, comments); members' own downloads are
 * the original's bytes. Nothing is kept by the browser (`private, no-store`), so a revoked link shows no picture
 * from a cache either.
 */
async function serve(req: FastifyRequest, reply: FastifyReply, deps: AppDeps) {
  const { token = '', file = '' } = req.params as Params;
  const link = await liveLink(deps, token, 'view');
  const pass = (req.query as { pass?: unknown }).pass;
  if (!passMatches(token, link, typeof pass === 'string' ? pass : undefined)) throw new AppError('FORBIDDEN', albumMessages.passwordNeeded);
  const parsed = parseFileName(file);
  const row = parsed && link.album_id !== null ? await repo.albumPictureByStem(deps.db, link.album_id, parsed.stem) : undefined;
  if (!parsed || !row || (parsed.variant === null && parsed.ext !== row.file_type)) throw new AppError('NOT_FOUND', 'No such file');
  if (parsed.variant) return deps.media.send(req, reply, variantKey(row.stem, parsed.variant), { contentType: 'image/webp', noStore: true });
  const type = row.file_type;
  const key = originalKey(row.stem, type);
  // The position goes out only when the sharer ticked "Include location" on the link; the personal fields never.
  const rewrite = await guestCopy(key, type, { location: !link.include_location, personal: true }, (use) => deps.media.withLocalFile(key, use));
  return deps.media.send(req, reply, key, {
    ...(rewrite ? { rewrite } : {}),
    contentType: row.mime,
    noStore: true,
    ...(type === 'svg' ? { csp: "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:" } : {}),
    ...(showsInBrowser(type) && (req.query as { download?: unknown }).download === undefined ? {} : { downloadName: `${row.caption.trim() || row.stem}.${type}` }),
  });
}

/**
 * POST /api/shared/:token/upload (multipart: `name`, the file, optional caption and date) — a guest's
 * picture through an upload link, through the members' pipeline (pictures.http.ts storeUpload: the
 * same types, size limit, duplicate detection and streaming), always pending. The link's caps (files
 * and bytes) are checked and counted under a lock of its row in the picture's own transaction. An
 * address counts once per link and window against the sign-up limit, so one address cannot flood
 * the queue through many links.
 */
async function guestUpload(req: FastifyRequest, deps: AppDeps): Promise<GuestUploadReply> {
  const { token = '' } = req.params as Params;
  const link = await liveLink(deps, token, 'upload');
  const bytesLeft = await admitGuest(req, deps, link);
  return guestReply(await storeUpload(req, deps, guestOwner(link), Math.min(deps.config.mediaMaxBytes, bytesLeft)));
}

type UploadLink = Awaited<ReturnType<typeof liveLink>>;

/**
 * A guest's new upload through a link: the address's throttle, then the link's caps (files, bytes);
 * the bytes the link still takes. Throws the refusal.
 */
async function admitGuest(req: FastifyRequest, deps: AppDeps, link: UploadLink): Promise<number> {
  const { maxAttempts, windowMs } = deps.config.signupThrottle;
  const pairKey = limitKey('guest-upload', `${req.ip}\n${link.id}`);
  if ((await deps.limits.hit(pairKey, windowMs)) === 1) {
    if (!(await deps.limits.reserve([{ key: limitKey('signup', req.ip), max: maxAttempts, windowMs }]))) {
      await deps.limits.clear(pairKey);
      throw new AppError('TOO_MANY_REQUESTS', albumMessages.guestThrottled);
    }
  }
  if (link.uses >= UPLOAD_LINK_MAX_FILES) throw new AppError('FORBIDDEN', albumMessages.capFiles);
  const bytesLeft = UPLOAD_LINK_MAX_BYTES - Number(link.upload_bytes);
  if (bytesLeft <= 0) throw new AppError('FORBIDDEN', albumMessages.capBytes);
  return bytesLeft;
}

/** A guest's picture: no account, always pending; the link's caps counted and its album filled in the picture's own transaction. */
function guestOwner(link: UploadLink): UploadOwner {
  return {
    userId: null,
    approved: false,
    uploaderName: null,
    async inTransaction(trx, row, fields) {
      const name = guestNameSchema.safeParse(fields.name ?? '');
      if (!name.success) throw new AppError('BAD_REQUEST', name.error.issues[0]?.message ?? 'Your name is not valid');
      const now = await repo.shareById(trx, link.id, true);
      if (!now || !isLive(now)) throw new AppError('NOT_FOUND', albumMessages.gone);
      if (now.uses >= UPLOAD_LINK_MAX_FILES) throw new AppError('FORBIDDEN', albumMessages.capFiles);
      if (Number(now.upload_bytes) + Number(row.size_bytes) > UPLOAD_LINK_MAX_BYTES) throw new AppError('FORBIDDEN', albumMessages.capBytes);
      await repo.countUse(trx, link.id, Number(row.size_bytes));
      await repo.insertGuest(trx, { picture_id: row.id, share_id: link.id, guest_name: name.data });
      // In the album now, shown there once approved (albums show approved pictures only).
      if (now.album_id !== null) await repo.addPictures(trx, now.album_id, [row.id]);
    },
  };
}

const guestReply = (stored: StoredUpload): GuestUploadReply =>
  stored.duplicate ? { duplicate: true, message: albumMessages.guestDuplicate } : { duplicate: false, message: albumMessages.guestUploaded };

/**
 * /api/shared/:token/uploads/[:id] — a guest's resumable upload (tus 1.0.0, pictures.resumable.ts):
 * only while the link works; the link's uploads are its own (another link's holder gets 404); the
 * throttle and caps at creation, and the caps again with the whole file, as `guestUpload` does.
 */
async function guestResumable(req: FastifyRequest, reply: FastifyReply, deps: AppDeps) {
  const { token = '' } = req.params as Params;
  const link = await liveLink(deps, token, 'upload');
  const maxBytes = Math.min(deps.config.mediaMaxBytes, Math.max(0, UPLOAD_LINK_MAX_BYTES - Number(link.upload_bytes)));
  const door: ResumableDoor = {
    owner: `link:${link.id}`,
    maxBytes,
    allowCreate: async () => void (await admitGuest(req, deps, link)),
    finish: async (file, fields) => guestReply(await storeReceived(deps, file, fields, guestOwner(link))),
  };
  return resumableUploads(deps).handle(req, reply, door);
}

export async function sharesHttp(routes: HttpRegistrar, deps: AppDeps): Promise<void> {
  await routes.register(fastifyMultipart, { throwFileSizeLimit: true });
  await routes.register(tusBodies, {});
  routes.route('GET /api/shared/:token/:file', (req, reply) => serve(req, reply, deps));
  routes.route('POST /api/shared/:token/upload', (req) => guestUpload(req, deps));
  const resumable = (req: FastifyRequest, reply: FastifyReply) => guestResumable(req, reply, deps);
  routes.route('POST /api/shared/:token/uploads/', resumable);
  routes.route('HEAD /api/shared/:token/uploads/:id', resumable);
  routes.route('PATCH /api/shared/:token/uploads/:id', resumable);
  routes.route('DELETE /api/shared/:token/uploads/:id', resumable);
}
