import type { Readable } from 'node:stream';
import { ALBUM_NAME_MAX, CAPTION_MAX, parseCaptureDate } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { findUserById, findUserByName } from '../../identity/users.repository.ts';
import type { PictureImportMeta, PictureImportOutcome, PictureImportStart } from '../../local-commands/control.ts';
import { formatBytes, MediaTooLargeError, type IncomingFile } from '../../media/index.ts';
import { albumNamed, putInAlbum } from '../albums/albums.port.ts';
import { storeReceived } from './pictures.http.ts';
import { nearestTown } from './pictures.places.ts';
import * as repo from './pictures.repository.ts';
import { giveHeart } from './pictures.social.ts';

/**
 * `npm run pictures -- import` on the server's side: each file it reads (from a takeout's zips or a
 * folder) enters the upload pipeline of a one-request upload (storeReceived: the type from its bytes,
 * the cap, dedupe by content, the approval rule of the member it is imported for, the preview and
 * understanding job, the notification of a picture waiting). What a takeout's sidecar and folders
 * add is written in the transaction of the new picture's row, so a run killed at any moment leaves a
 * picture with all of it or no picture: its place when the file holds none (the job's own reading of
 * the file wins when it finds one), the member's heart, and its album. A file already there (the same
 * bytes) gets its heart and album only: a rerun of a run killed between the two finds nothing missing.
 * The command reaches this over the control socket while a server holds the embedded database, or
 * runs it in its own process otherwise (pictures.import.cli.ts).
 */

/** Refused before any file: no such member, or no account yet. */
export class ImportError extends Error {}

export type PictureImporter = {
  start(as: string | null): Promise<PictureImportStart>;
  file(memberId: number, meta: PictureImportMeta, bytes: Readable, signal?: AbortSignal): Promise<PictureImportOutcome>;
};

/** Text on one line (captions and album names are), without a broken character, cut to `max` with an ellipsis. */
function oneLine(text: string | null | undefined, max: number): string {
  const line = (text ?? '')
    // eslint-disable-next-line no-control-regex -- control characters are what is replaced
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/\s+/g, ' ')
    .trim();
  if (line.length <= max) return line;
  // Not between the two halves of a character outside the BMP (an emoji).
  return `${line.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '').trimEnd()}\u2026`;
}

/** A sidecar's description as a caption: on one line (the caption is), within the caption's length. */
export const captionOf = (text: string | null | undefined) => oneLine(text, CAPTION_MAX);

/** A folder's title as an album name: on one line, within the album name's length. */
export const albumNameOf = (title: string) => oneLine(title, ALBUM_NAME_MAX);

const validPosition = (p: PictureImportMeta['position']) =>
  p && Number.isFinite(p.lat) && Number.isFinite(p.lon) && Math.abs(p.lat) <= 90 && Math.abs(p.lon) <= 180 && !(p.lat === 0 && p.lon === 0) ? p : null;

export function pictureImporter(deps: AppDeps): PictureImporter {
  const maxBytes = deps.config.mediaMaxBytes;
  return {
    async start(as) {
      const user = as === null ? await owner(deps.db) : await findUserByName(deps.db, as);
      if (!user) throw new ImportError(as === null ? 'No account exists yet: make the owner\'s account first (npm start shows how)' : `No member is called ${as}`);
      return { member: { id: user.id, name: user.name }, maxBytes };
    },

    async file(memberId, meta, bytes, signal) {
      const user = await findUserById(deps.db, memberId);
      if (!user) throw new ImportError('The member the import is for no longer exists');
      let incoming: IncomingFile;
      try {
        incoming = await deps.media.receive(bytes, { maxBytes, ...(signal ? { signal } : {}) });
      } catch (error) {
        if (error instanceof MediaTooLargeError) return { result: 'skipped', reason: 'too large', detail: `larger than the upload limit of ${formatBytes(maxBytes)}` };
        if (signal?.aborted) throw error;
        return { result: 'skipped', reason: 'unreadable', detail: error instanceof Error ? error.message : String(error) };
      }
      const album = meta.album ? albumNameOf(meta.album) : '';
      let albumMade = false;
      // What the sidecar and the folder add, in the transaction of the picture's row (or of its heart and album when it is already there).
      const extras = async (trx: Executor, pictureId: number, isNew: boolean) => {
        const position = isNew ? validPosition(meta.position) : null;
        if (position) {
          const town = nearestTown(position);
          await repo.savePlace(trx, pictureId, { ...position, town: town?.town ?? null, country: town?.country ?? null });
        }
        if (meta.favorite) await giveHeart(trx, user, pictureId);
        if (album) {
          const found = await albumNamed(trx, user.id, album);
          albumMade = found.made;
          await putInAlbum(trx, found.id, pictureId);
        }
      };
      const date = meta.date ? parseCaptureDate(meta.date) : null;
      try {
        const stored = await storeReceived(
          deps,
          incoming,
          { caption: captionOf(meta.caption) },
          { userId: user.id, approved: user.level >= 2, uploaderName: user.name, inTransaction: (trx, row) => extras(trx, row.id, true) },
          { dateWhenNone: date ?? null },
        );
        if (!stored.duplicate) return { result: 'imported', pictureId: stored.row.id, albumMade };
        // Another member's picture still waiting for approval is not this member's to heart or put in an album.
        const mine = stored.row.status === 'approved' || stored.row.uploaded_by === user.id || user.level >= 3;
        if (mine && (meta.favorite || album)) await deps.db.transaction().execute((trx) => extras(trx, stored.row.id, false));
        return { result: 'already there', pictureId: stored.row.id, albumMade };
      } catch (error) {
        if (error instanceof AppError && error.code === 'UNSUPPORTED_MEDIA_TYPE') return { result: 'skipped', reason: 'not a picture or video', detail: error.message };
        if (error instanceof AppError && error.code === 'BAD_REQUEST') return { result: 'skipped', reason: 'unreadable', detail: error.message };
        throw error;
      }
    },
  };
}

/** The owner: the first account made (level 3). */
async function owner(db: Executor) {
  const row = await db.selectFrom('users').select(['id', 'name', 'level']).where('level', '>=', 3).orderBy('id').limit(1).executeTakeFirst();
  return row;
}
