import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/**
 * What other areas may do with albums: `npm run pictures -- import` (pictures.import.ts) puts the
 * pictures of a takeout's album folders into albums of the importing member. Inside the caller's
 * transaction, so a picture and its place in an album are written together.
 */

/**
 * The member's album of this name (the oldest, when several), made when there is none: a rerun
 * of the same import finds the album its first run made. `made` says whether this call made it.
 */
export async function albumNamed(trx: Executor, ownerId: number, name: string): Promise<{ id: number; made: boolean }> {
  // One import at a time per member makes its albums: a second one waits here, then finds the first's.
  await sql`select pg_advisory_xact_lock(hashtextextended(${`album:${ownerId}:${name}`}, 20261129))`.execute(trx);
  const found = await trx.selectFrom('albums').select('id').where('owner_id', '=', ownerId).where('name', '=', name).orderBy('id').limit(1).executeTakeFirst();
  if (found) return { id: found.id, made: false };
  const row = await trx.insertInto('albums').values({ name, private: false, owner_id: ownerId }).returning('id').executeTakeFirstOrThrow();
  return { id: row.id, made: true };
}

/** Puts the picture in the album (once: a picture already there stays as it was). */
export async function putInAlbum(trx: Executor, albumId: number, pictureId: number): Promise<void> {
  await trx
    .insertInto('album_pictures')
    .values({ album_id: albumId, picture_id: pictureId })
    .onConflict((oc) => oc.columns(['album_id', 'picture_id']).doNothing())
    .execute();
}
