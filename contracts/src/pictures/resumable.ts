/**
 * Resumable uploads (tus 1.0.0): where they are created and what their refusals say. The server's
 * side is server/src/areas/pictures/pictures.resumable.ts; the pages use tus-js-client.
 */

/** The members' collection: POST here creates an upload, whose URL is this plus its id. */
export const RESUMABLE_PATH = '/uploads/';

/** A guest upload link's collection (the link's token in the path, as its one-request upload has). */
export const guestResumablePath = (token: string) => `/api/shared/${encodeURIComponent(token)}/uploads/`;

/** An upload nothing has written to for this long is removed (its parts and record): a day. */
export const RESUMABLE_ABANDONED_MS = 24 * 60 * 60 * 1000;

/** The part of a file each PATCH carries at most: a drop loses at most what was on its way. */
export const RESUMABLE_CHUNK_BYTES = 64 * 1024 * 1024;

export const resumableMessages = {
  /** Another maker's upload, one removed after a day, or an id that never was: all alike. */
  notFound: 'No such upload: it was finished, removed after a day untouched, or is not yours',
  lengthNeeded: 'A resumable upload needs its length (Upload-Length) when it is created',
  resuming: 'Resuming…',
} as const;
