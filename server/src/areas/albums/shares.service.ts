import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  albumMessages,
  allows,
  procedures,
  type Level,
  SHARE_DEFAULT_DAYS,
  SHARED_PAGE,
  UPLOAD_LINK_MAX_BYTES,
  UPLOAD_LINK_MAX_FILES,
  UPLOAD_PAGE,
  type CreatedShare,
  type OpenShareReply,
  type PictureSocial,
  type SearchResult,
  type ShareLink,
  type UploadLinkInfo,
} from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { hashToken } from '../../identity/token-hash.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { limitKey } from '../../identity/limits.ts';
import { siteUrl } from '../../http/site-url.ts';
import { toPicture } from '../pictures/pictures.port.ts';
import { socialOf } from '../pictures/pictures.port.ts';
import { searchAlbum } from '../pictures/pictures.port.ts';
import * as repo from './albums.repository.ts';
import type { ShareWithSharer } from './albums.repository.ts';
import { changeableAlbum, mayChange } from './albums.service.ts';
import type { ShareRecord } from './albums.tables.ts';

/**
 * Guest links. A token is 16 random bytes (128 bits), base64url in the URL; the database keeps only
 * its SHA-256 (identity/token-hash.ts, as for sessions and API tokens). A token that names no link,
 * a revoked link or an expired one get the same answer, from the same lookup.
 */
const gone = () => new AppError('NOT_FOUND', albumMessages.gone);

/** The site's address for a link: PUBLIC_URL, else the address the browser asked on, else the LAN one. */
function linkUrl(deps: AppDeps, origin: string | null, page: string, token: string): string {
  const base = deps.config.publicUrl ?? origin ?? siteUrl(deps.config);
  return `${base.replace(/\/+$/, '')}${page}/${token}`;
}

const expiry = (days: number | undefined) => new Date(Date.now() + (days ?? SHARE_DEFAULT_DAYS) * 86_400_000);

/**
 * The procedure that makes each kind of link: a link works only while its maker may still make it
 * (the maker's level now, read with the link on every use), so a member lowered to a pending account
 * (or deleted) stops their links at once, and raised again has them back.
 */
const MADE_BY = { view: 'shares.create', upload: 'shares.createUpload' } as const;

/** Whether a link works now: not revoked, not expired, and its maker may still make such a link. */
export function isLive(link: ShareWithSharer): boolean {
  if (link.revoked_at !== null || (link.expires_at !== null && link.expires_at.getTime() <= Date.now())) return false;
  return link.sharer_level !== null && allows(procedures[MADE_BY[link.kind]], { name: '', level: link.sharer_level as Level });
}

/** The link of a token when it works and is of this kind; otherwise the one "no longer shared" refusal. */
export async function liveLink(deps: AppDeps, token: string, kind: 'view' | 'upload'): Promise<ShareWithSharer> {
  // One path for every token, well-formed or not: hashed, then looked up by its hash (an indexed
  // equality on the stored hash, never a comparison with the token), so an answer's time tells
  // nothing about which links exist.
  const link = await repo.shareByHash(deps.db, hashToken(token));
  if (!link || link.kind !== kind || !isLive(link)) throw gone();
  return link;
}

/** What proves a guest gave the password: derived from the token and the stored argon2 hash, never stored. */
function passOf(token: string, link: ShareRecord): string {
  return hashToken(`pass\n${token}\n${link.password_hash ?? ''}`);
}

export function passMatches(token: string, link: ShareRecord, pass: string | undefined): boolean {
  if (link.password_hash === null) return true;
  if (!pass) return false;
  const expected = Buffer.from(passOf(token, link));
  const given = Buffer.from(pass);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function create(
  deps: AppDeps,
  user: SessionUser,
  origin: string | null,
  input: { albumId: number; expiresInDays?: number | undefined; password?: string | undefined; includeLocation?: boolean | undefined },
): Promise<CreatedShare> {
  await changeableAlbum(deps, user, input.albumId);
  const token = randomBytes(16).toString('base64url');
  const password = input.password ?? '';
  const row = await repo.insertShare(deps.db, {
    token_hash: hashToken(token),
    kind: 'view',
    album_id: input.albumId,
    created_by: user.id,
    expires_at: expiry(input.expiresInDays),
    password_hash: password === '' ? null : await deps.passwords.hash(password),
    include_location: input.includeLocation === true,
  });
  return { id: row.id, url: linkUrl(deps, origin, SHARED_PAGE, token) };
}

export async function createUpload(
  deps: AppDeps,
  user: SessionUser,
  origin: string | null,
  input: { albumId?: number | undefined; expiresInDays?: number | undefined },
): Promise<CreatedShare> {
  if (input.albumId !== undefined) await changeableAlbum(deps, user, input.albumId);
  const token = randomBytes(16).toString('base64url');
  const row = await repo.insertShare(deps.db, {
    token_hash: hashToken(token),
    kind: 'upload',
    album_id: input.albumId ?? null,
    created_by: user.id,
    expires_at: expiry(input.expiresInDays),
    password_hash: null,
    include_location: false,
  });
  return { id: row.id, url: linkUrl(deps, origin, UPLOAD_PAGE, token) };
}

type ActiveRow = Awaited<ReturnType<typeof repo.activeShares>>[number];

function toLink(user: SessionUser, row: ActiveRow): ShareLink {
  // A private album's name is its owner's alone, here too.
  const albumShown = row.album_id !== null && (!row.album_private || row.album_owner === user.id);
  return {
    id: row.id,
    kind: row.kind,
    albumId: albumShown ? row.album_id : null,
    albumName: row.album_id === null ? null : albumShown ? row.album_name : 'A private album',
    createdBy: row.created_by_name,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at?.toISOString() ?? null,
    hasPassword: row.password_hash !== null,
    includesLocation: row.kind === 'view' && row.include_location,
    uses: row.kind === 'view' ? row.uses : 0,
    uploads: row.kind === 'upload' ? row.uses : 0,
    uploadBytes: Number(row.upload_bytes),
  };
}

/** The album's working links (its owner, or an admin for a family album). */
export async function listOfAlbum(deps: AppDeps, user: SessionUser, albumId: number): Promise<ShareLink[]> {
  await changeableAlbum(deps, user, albumId);
  return (await repo.activeShares(deps.db, albumId)).map((row) => toLink(user, row));
}

/** Admins: every working link of the site. */
export async function active(deps: AppDeps, user: SessionUser): Promise<ShareLink[]> {
  return (await repo.activeShares(deps.db, null)).map((row) => toLink(user, row));
}

/** Revokes a link: its maker, whoever may change its album, or an admin. At once, thumbnails included. */
export async function revoke(deps: AppDeps, user: SessionUser, id: number): Promise<{ id: number }> {
  const link = await repo.shareById(deps.db, id);
  if (!link || link.revoked_at !== null) throw new AppError('NOT_FOUND', albumMessages.linkNotFound);
  let allowed = user.level >= 3 || link.created_by === user.id;
  if (!allowed && link.album_id !== null) {
    const album = await repo.findAlbum(deps.db, link.album_id);
    allowed = album !== undefined && mayChange(user, album);
  }
  if (!allowed) throw new AppError('FORBIDDEN', albumMessages.notYourLink);
  await repo.revokeShare(deps.db, id);
  return { id };
}

/** A guest opens a view link: the album's pictures, captions and dates, and the sharer's name alone. */
export async function open(deps: AppDeps, input: { token: string; pass?: string | undefined }): Promise<OpenShareReply> {
  const link = await liveLink(deps, input.token, 'view');
  if (!passMatches(input.token, link, input.pass)) return { state: 'password' };
  const albumId = link.album_id ?? 0;
  const album = await repo.findAlbum(deps.db, albumId);
  if (!album) throw gone();
  await repo.countUse(deps.db, link.id);
  const pictures = (await repo.albumPictures(deps.db, [albumId])).map((row) => ({ ...toPicture(row), uploader: null }));
  return { state: 'open', album: { name: album.name, sharer: await repo.userName(deps.db, link.created_by), pictures } };
}

/** What a guest sees of the members who hearted or commented: the sharer's name, no one else's. */
export const GUEST_AUTHOR = 'A family member';

/**
 * A guest reads the hearts and comments of a picture of the shared album (they cannot add any): only
 * while the link works, with its pass when it has a password, and only for an approved picture of
 * that album. Names other than the sharer's are not shown: hearts as a count, comments by
 * "A family member". Reading does not count a use of the link.
 */
export async function guestSocial(deps: AppDeps, input: { token: string; pass?: string | undefined; pictureId: number }): Promise<PictureSocial> {
  const link = await liveLink(deps, input.token, 'view');
  if (!passMatches(input.token, link, input.pass)) throw new AppError('FORBIDDEN', albumMessages.passwordNeeded);
  if (link.album_id === null || !(await repo.albumHasPicture(deps.db, link.album_id, input.pictureId))) {
    throw new AppError('NOT_FOUND', albumMessages.noSuchPicture);
  }
  const sharer = await repo.userName(deps.db, link.created_by);
  const social = await socialOf(deps.db, input.pictureId, null);
  return {
    ...social,
    // Where it was taken only when the link includes location (as its downloads and search do).
    place: link.include_location ? social.place : null,
    hearts: { ...social.hearts, names: social.hearts.names.filter((name) => name === sharer) },
    comments: social.comments.map((c) => ({ ...c, author: c.author === sharer ? c.author : GUEST_AUTHOR })),
  };
}

/**
 * A guest searches the shared album (while the link works, with its pass): by captions, comments and
 * dates, and by town and country only when the link includes location (its downloads carry the
 * position then too); never by people's names. Pictures come without their uploader, as `open` gives them.
 */
export async function guestSearch(deps: AppDeps, input: { token: string; pass?: string | undefined; q: string; cursor?: string | undefined }): Promise<SearchResult> {
  const link = await liveLink(deps, input.token, 'view');
  if (!passMatches(input.token, link, input.pass)) throw new AppError('FORBIDDEN', albumMessages.passwordNeeded);
  const found = await searchAlbum(deps, link.album_id ?? 0, link.include_location, input);
  return { ...found, items: found.items.map((p) => ({ ...p, uploader: null })) };
}

/**
 * A guest's password, counted like a login: every attempt before the argon2 check, per link, so a
 * hundred parallel guesses find the counter at the limit; a right password clears it.
 */
export async function unlock(deps: AppDeps, input: { token: string; password: string }): Promise<{ pass: string | null }> {
  const link = await liveLink(deps, input.token, 'view');
  if (link.password_hash === null) return { pass: null };
  const { maxFailures: max, windowMs } = deps.config.loginThrottle;
  const key = limitKey('share-password', String(link.id));
  if (!(await deps.limits.reserve([{ key, max, windowMs }]))) throw new AppError('TOO_MANY_REQUESTS', albumMessages.throttled);
  if (!(await deps.passwords.verify(link.password_hash, input.password))) throw new AppError('UNAUTHORIZED', albumMessages.wrongPassword);
  await deps.limits.clear(key);
  return { pass: passOf(input.token, link) };
}

/** What the upload page says before the guest chooses files. */
export async function uploadInfo(deps: AppDeps, token: string): Promise<UploadLinkInfo> {
  const link = await liveLink(deps, token, 'upload');
  const album = link.album_id === null ? undefined : await repo.findAlbum(deps.db, link.album_id);
  return {
    albumName: album?.name ?? null,
    sharer: await repo.userName(deps.db, link.created_by),
    filesLeft: Math.max(0, UPLOAD_LINK_MAX_FILES - link.uses),
    bytesLeft: Math.max(0, UPLOAD_LINK_MAX_BYTES - Number(link.upload_bytes)),
  };
}
