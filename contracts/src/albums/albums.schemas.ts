import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { nameText, text } from '../text.ts';
import type { Picture } from '../pictures/pictures.schemas.ts';
import { ALBUM_BATCH_MAX, ALBUM_NAME_MAX, albumMessages, GUEST_NAME_MAX, SHARE_MAX_DAYS, SHARE_PASSWORD_MAX, type ShareKind } from './albums.rules.ts';

export * from './albums.rules.ts';

const albumId = rowId(albumMessages.notFound);
const pictureId = rowId(albumMessages.noSuchPicture);

export const albumNameSchema = text({ label: 'Album name', max: ALBUM_NAME_MAX, trim: true, min: 1 });
export const albumIdInput = z.object({ id: albumId });
export const createAlbumInput = z.object({ name: albumNameSchema, private: z.boolean() });
export const renameAlbumInput = z.object({ id: albumId, name: albumNameSchema });
export const pictureOfAlbumsInput = z.object({ pictureId });
export const albumPicturesInput = z.object({
  albumId,
  pictureIds: z.array(pictureId).min(1, { error: 'Choose at least one picture' }).max(ALBUM_BATCH_MAX, { error: `At most ${ALBUM_BATCH_MAX} pictures at a time` }),
});

const days = z.number({ error: albumMessages.badDays }).int({ error: albumMessages.badDays }).min(1, { error: albumMessages.badDays }).max(SHARE_MAX_DAYS, { error: albumMessages.badDays });
/** An optional password: blank means none. */
const sharePassword = text({ label: 'Password', max: SHARE_PASSWORD_MAX });
/** `includeLocation`: originals keep their GPS position for the link's guests (off unless the sharer ticks it). */
export const createShareInput = z.object({ albumId, expiresInDays: days.optional(), password: sharePassword.optional(), includeLocation: z.boolean().optional() });
export const createUploadShareInput = z.object({ albumId: albumId.optional(), expiresInDays: days.optional() });
export const shareIdInput = z.object({ id: rowId(albumMessages.linkNotFound) });
export const sharesOfAlbumInput = z.object({ albumId });

/** A guest's token as the URL carries it; anything else is answered as a link no longer shared. */
const token = z.string().max(200);
export const openShareInput = z.object({ token, pass: z.string().max(200).optional() });
export const unlockShareInput = z.object({ token, password: z.string().max(SHARE_PASSWORD_MAX) });
export const uploadInfoInput = z.object({ token });
/** A guest reads one picture's hearts and comments: the link (and its pass) and a picture of its album. */
export const guestSocialInput = z.object({ token, pass: z.string().max(200).optional(), pictureId });
/** A guest's name, shown beside their pictures: held to member names' rules (no invisible or direction-changing characters, no look-alike letters). */
export const guestNameSchema = nameText({ label: 'Your name', max: GUEST_NAME_MAX, trim: true, min: 1 });

export type AlbumSummary = {
  id: number;
  name: string;
  private: boolean;
  owner: string | null;
  pictureCount: number;
  /** The newest picture, for the album's tile. */
  cover: Picture | null;
  /** This member may rename, delete, share it and change its pictures. */
  mayChange: boolean;
};
export type Album = AlbumSummary & { pictures: Picture[] };

export type ShareLink = {
  id: number;
  kind: ShareKind;
  albumId: number | null;
  albumName: string | null;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string | null;
  hasPassword: boolean;
  /** A view link's guests download originals with their GPS position (else it is removed). */
  includesLocation: boolean;
  uses: number;
  uploads: number;
  uploadBytes: number;
};
export type CreatedShare = { id: number; url: string };

/** What a guest sees of a shared album: its pictures, captions and dates, and the sharer's name only. */
export type SharedAlbum = { name: string; sharer: string | null; pictures: Picture[] };
export type OpenShareReply = { state: 'open'; album: SharedAlbum } | { state: 'password' };
export type UploadLinkInfo = { albumName: string | null; sharer: string | null; filesLeft: number; bytesLeft: number };
export type GuestUploadReply = { message: string; duplicate: boolean };
