import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { CARD_COLUMNS, type PictureCard } from '../pictures/pictures.port.ts';
import type { AlbumRecord, ShareRecord } from './albums.tables.ts';

/** Albums this member sees: the family's and their own private ones. */
export function visibleAlbums(db: Executor, userId: number) {
  return db
    .selectFrom('albums')
    .leftJoin('users', 'users.id', 'albums.owner_id')
    .selectAll('albums')
    .select('users.name as owner')
    .select((eb) =>
      eb
        .selectFrom('album_pictures')
        .innerJoin('pictures', 'pictures.id', 'album_pictures.picture_id')
        .whereRef('album_pictures.album_id', '=', 'albums.id')
        .where('pictures.status', '=', 'approved')
        .select((e) => e.fn.countAll<string>().as('n'))
        .as('picture_count'),
    )
    .where((eb) => eb.or([eb('albums.private', '=', false), eb('albums.owner_id', '=', userId)]))
    .orderBy('albums.created_at', 'desc')
    .orderBy('albums.id', 'desc')
    .execute();
}

/** The ids of the albums `userId` sees (family albums and its own private ones) that hold `pictureId`. */
export async function albumsHolding(db: Executor, userId: number, pictureId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('albums')
    .innerJoin('album_pictures', 'album_pictures.album_id', 'albums.id')
    .select('albums.id')
    .where('album_pictures.picture_id', '=', pictureId)
    .where((eb) => eb.or([eb('albums.private', '=', false), eb('albums.owner_id', '=', userId)]))
    .orderBy('albums.created_at', 'desc')
    .orderBy('albums.id', 'desc')
    .execute();
  return rows.map((row) => row.id);
}

export function findAlbum(db: Executor, id: number): Promise<(AlbumRecord & { owner: string | null }) | undefined> {
  return db
    .selectFrom('albums')
    .leftJoin('users', 'users.id', 'albums.owner_id')
    .selectAll('albums')
    .select('users.name as owner')
    .where('albums.id', '=', id)
    .executeTakeFirst();
}

/** The albums' approved pictures, newest capture first (as the gallery orders them). */
export function albumPictures(db: Executor, albumIds: readonly number[]): Promise<(PictureCard & { album_id: number })[]> {
  if (albumIds.length === 0) return Promise.resolve([]);
  return pictureCards(db, albumIds)
    .orderBy('pictures.year', 'desc')
    .orderBy('pictures.month', 'desc')
    .orderBy('pictures.day', 'desc')
    .orderBy('pictures.id', 'desc')
    .execute();
}

/** Each album's newest approved picture (its tile on the albums page): one row per album. */
export function albumCovers(db: Executor, albumIds: readonly number[]): Promise<(PictureCard & { album_id: number })[]> {
  if (albumIds.length === 0) return Promise.resolve([]);
  return pictureCards(db, albumIds)
    .distinctOn('album_pictures.album_id')
    .orderBy('album_pictures.album_id')
    .orderBy('pictures.year', 'desc')
    .orderBy('pictures.month', 'desc')
    .orderBy('pictures.day', 'desc')
    .orderBy('pictures.id', 'desc')
    .execute();
}

function pictureCards(db: Executor, albumIds: readonly number[]) {
  return db
    .selectFrom('album_pictures')
    .innerJoin('pictures', 'pictures.id', 'album_pictures.picture_id')
    .select(CARD_COLUMNS.map((c) => `pictures.${c}` as const))
    .select('album_pictures.album_id')
    .select((eb) => eb.selectFrom('users').select('users.name').whereRef('users.id', '=', 'pictures.uploaded_by').as('uploader'))
    .where('album_pictures.album_id', 'in', albumIds)
    .where('pictures.status', '=', 'approved');
}

export function insertAlbum(db: Executor, values: { name: string; private: boolean; owner_id: number }): Promise<AlbumRecord> {
  return db.insertInto('albums').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Of these ids, the approved pictures. */
export async function approvedPictureIds(db: Executor, ids: readonly number[]): Promise<Set<number>> {
  const rows = await db.selectFrom('pictures').select('id').where('id', 'in', ids).where('status', '=', 'approved').execute();
  return new Set(rows.map((r) => r.id));
}

export async function addPictures(db: Executor, albumId: number, pictureIds: readonly number[]): Promise<void> {
  await db
    .insertInto('album_pictures')
    .values(pictureIds.map((picture_id) => ({ album_id: albumId, picture_id })))
    .onConflict((oc) => oc.columns(['album_id', 'picture_id']).doNothing())
    .execute();
}

export async function removePictures(db: Executor, albumId: number, pictureIds: readonly number[]): Promise<number> {
  const result = await db.deleteFrom('album_pictures').where('album_id', '=', albumId).where('picture_id', 'in', pictureIds).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function renameAlbum(db: Executor, id: number, name: string): Promise<void> {
  await db.updateTable('albums').set({ name }).where('id', '=', id).execute();
}

export async function deleteAlbum(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('albums').where('id', '=', id).execute();
}

// ---- links ----

export function insertShare(
  db: Executor,
  values: {
    token_hash: string;
    kind: 'view' | 'upload';
    album_id: number | null;
    created_by: number;
    expires_at: Date;
    password_hash: string | null;
    include_location: boolean;
  },
): Promise<ShareRecord> {
  return db
    .insertInto('album_shares')
    .values({ ...values, revoked_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A link by its token's hash, whatever its state (the caller tells revoked and expired apart from none). */
/** A link with the level its maker has now: null once the maker's account is deleted. */
export type ShareWithSharer = ShareRecord & { sharer_level: number | null };

function shareWithSharer(db: Executor) {
  return db
    .selectFrom('album_shares')
    .selectAll('album_shares')
    .select((eb) => eb.selectFrom('users').select('users.level').whereRef('users.id', '=', 'album_shares.created_by').as('sharer_level'));
}

export function shareByHash(db: Executor, tokenHash: string): Promise<ShareWithSharer | undefined> {
  return shareWithSharer(db).where('album_shares.token_hash', '=', tokenHash).executeTakeFirst();
}

export function shareById(db: Executor, id: number, forUpdate = false): Promise<ShareWithSharer | undefined> {
  return shareWithSharer(db)
    .where('album_shares.id', '=', id)
    .$if(forUpdate, (q) => q.forUpdate())
    .executeTakeFirst();
}

/** Links not revoked and not expired, with their album and maker; of one album, or all of them. */
export function activeShares(db: Executor, albumId: number | null) {
  return db
    .selectFrom('album_shares')
    .leftJoin('albums', 'albums.id', 'album_shares.album_id')
    .leftJoin('users', 'users.id', 'album_shares.created_by')
    .selectAll('album_shares')
    .select(['albums.name as album_name', 'albums.private as album_private', 'albums.owner_id as album_owner', 'users.name as created_by_name'])
    .where('album_shares.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('album_shares.expires_at', 'is', null), eb('album_shares.expires_at', '>', sql<Date>`now()`)]))
    .$if(albumId !== null, (q) => q.where('album_shares.album_id', '=', albumId ?? 0))
    .orderBy('album_shares.id', 'desc')
    .execute();
}

export async function revokeShare(db: Executor, id: number): Promise<void> {
  await db.updateTable('album_shares').set({ revoked_at: sql<Date>`now()` }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

export async function countUse(db: Executor, id: number, bytes = 0): Promise<void> {
  await db
    .updateTable('album_shares')
    .set({ uses: sql<number>`uses + 1`, upload_bytes: sql<number>`upload_bytes + ${bytes}` })
    .where('id', '=', id)
    .execute();
}

export function userName(db: Executor, id: number | null): Promise<string | null> {
  if (id === null) return Promise.resolve(null);
  return db
    .selectFrom('users')
    .select('name')
    .where('id', '=', id)
    .executeTakeFirst()
    .then((r) => r?.name ?? null);
}

/** The approved picture of this stem in this album, for a guest's file request. */
/** Whether the album holds this approved picture (what a guest of the album may see). */
export async function albumHasPicture(db: Executor, albumId: number, pictureId: number): Promise<boolean> {
  const row = await db
    .selectFrom('album_pictures')
    .innerJoin('pictures', 'pictures.id', 'album_pictures.picture_id')
    .select('pictures.id')
    .where('album_pictures.album_id', '=', albumId)
    .where('pictures.id', '=', pictureId)
    .where('pictures.status', '=', 'approved')
    .executeTakeFirst();
  return row !== undefined;
}

export function albumPictureByStem(db: Executor, albumId: number, stem: string) {
  return db
    .selectFrom('pictures')
    .innerJoin('album_pictures', 'album_pictures.picture_id', 'pictures.id')
    .select(['pictures.id', 'pictures.stem', 'pictures.file_type', 'pictures.mime', 'pictures.caption'])
    .where('album_pictures.album_id', '=', albumId)
    .where('pictures.stem', '=', stem)
    .where('pictures.status', '=', 'approved')
    .executeTakeFirst();
}

export async function insertGuest(db: Executor, values: { picture_id: number; share_id: number; guest_name: string }): Promise<void> {
  await db.insertInto('picture_guests').values(values).execute();
}
