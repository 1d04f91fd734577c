/**
 * The words and limits of albums and links, without zod (the guest pages load this and little else).
 */

export const ALBUM_NAME_MAX = 100;
export const GUEST_NAME_MAX = 60;
/** A link works this many days unless its maker says otherwise (1 to 365). */
export const SHARE_DEFAULT_DAYS = 30;
export const SHARE_MAX_DAYS = 365;
export const SHARE_PASSWORD_MAX = 200;
/** What one upload link accepts in all: files and bytes (what is refused as a duplicate is not counted). */
export const UPLOAD_LINK_MAX_FILES = 50;
export const UPLOAD_LINK_MAX_BYTES = 1024 * 1024 * 1024;
/** Most pictures one call adds to or removes from an album. */
export const ALBUM_BATCH_MAX = 500;

/**
 * Where the guest pages live: the link's token follows (`/shared/<token>`). The app shell shows them
 * alone, with no navbar (client/src/app/Shell.tsx matches these two prefixes).
 */
export const SHARED_PAGE = '/shared';
export const UPLOAD_PAGE = '/upload';

export const ALBUMS_PATH = '/personal/pictures/albums';
export const albumPath = (id: number) => `${ALBUMS_PATH}/${id}`;

/** The guest's URL of one of the album's files (the original, or a derived WebP); `pass` after a password. */
export function sharedMediaUrl(token: string, target: string, variant?: 'thumb' | 'display' | 'poster', pass?: string | null): string {
  const file = variant ? `${target.replace(/\.[^.]+$/, '')}.${variant}.webp` : target;
  const query = pass ? `?pass=${encodeURIComponent(pass)}` : '';
  return `/api/shared/${encodeURIComponent(token)}/${encodeURIComponent(file)}${query}`;
}

export const albumMessages = {
  notFound: 'That album does not exist',
  notYours: 'Only the album\u2019s owner (or an admin, for a family album) may change it',
  noSuchPicture: 'One of those pictures does not exist or is not in the gallery yet',
  /** Every refusal of a guest's token: unknown, revoked or expired look the same. */
  gone: 'This link is no longer shared',
  passwordNeeded: 'This album is protected by a password',
  wrongPassword: 'That password is not right',
  throttled: 'Too many wrong passwords. Wait a while and try again.',
  linkNotFound: 'That link does not exist',
  notYourLink: 'Only the link\u2019s maker, the album\u2019s owner or an admin may revoke it',
  badDays: 'Expiry must be a whole number of days from 1 to 365',
  capFiles: `This upload link has taken its ${UPLOAD_LINK_MAX_FILES} files`,
  capBytes: 'This upload link has taken all the bytes it accepts',
  guestThrottled: 'Too many uploads from this address. Wait a while and try again.',
  guestUploaded: 'Uploaded. The site\u2019s owner will look at it before it is shown.',
  guestDuplicate: 'Already uploaded',
};

export type ShareKind = 'view' | 'upload';
