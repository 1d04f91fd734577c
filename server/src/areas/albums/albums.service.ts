import { albumMessages, type Album, type AlbumSummary } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { toPicture } from '../pictures/pictures.port.ts';
import * as repo from './albums.repository.ts';
import type { AlbumRecord } from './albums.tables.ts';

/**
 * The rules of albums. A private album exists for its owner alone: to anyone else, an admin included,
 * every path answers as for an album that does not exist. A family album is seen by every member and
 * changed by its owner or an admin.
 */
export function mayView(user: SessionUser, album: Pick<AlbumRecord, 'private' | 'owner_id'>): boolean {
  return !album.private || album.owner_id === user.id;
}

export function mayChange(user: SessionUser, album: Pick<AlbumRecord, 'private' | 'owner_id'>): boolean {
  if (album.private) return album.owner_id === user.id;
  return album.owner_id === user.id || user.level >= 3;
}

/** The album when this member sees it; otherwise NOT_FOUND, the same as for no album at all. */
export async function visibleAlbum(deps: AppDeps, user: SessionUser, id: number) {
  const album = await repo.findAlbum(deps.db, id);
  if (!album || !mayView(user, album)) throw new AppError('NOT_FOUND', albumMessages.notFound);
  return album;
}

/** The album when this member may change it: NOT_FOUND when unseen, FORBIDDEN when only seen. */
export async function changeableAlbum(deps: AppDeps, user: SessionUser, id: number) {
  const album = await visibleAlbum(deps, user, id);
  if (!mayChange(user, album)) throw new AppError('FORBIDDEN', albumMessages.notYours);
  return album;
}

export async function list(deps: AppDeps, user: SessionUser): Promise<AlbumSummary[]> {
  const albums = await repo.visibleAlbums(deps.db, user.id);
  const covers = await repo.albumCovers(
    deps.db,
    albums.map((a) => a.id),
  );
  return albums.map((a) => {
    const cover = covers.find((c) => c.album_id === a.id);
    return {
      id: a.id,
      name: a.name,
      private: a.private,
      owner: a.owner,
      pictureCount: Number(a.picture_count ?? 0),
      cover: cover ? toPicture(cover) : null,
      mayChange: mayChange(user, a),
    };
  });
}

/** The albums this member sees that hold `pictureId`, newest first (as `list`): none for a picture in none, or unknown. */
export async function holding(deps: AppDeps, user: SessionUser, pictureId: number): Promise<number[]> {
  return repo.albumsHolding(deps.db, user.id, pictureId);
}

export async function get(deps: AppDeps, user: SessionUser, id: number): Promise<Album> {
  const album = await visibleAlbum(deps, user, id);
  const pictures = (await repo.albumPictures(deps.db, [id])).map(toPicture);
  return {
    id: album.id,
    name: album.name,
    private: album.private,
    owner: album.owner,
    pictureCount: pictures.length,
    cover: pictures[0] ?? null,
    mayChange: mayChange(user, album),
    pictures,
  };
}

export async function create(deps: AppDeps, user: SessionUser, input: { name: string; private: boolean }): Promise<{ id: number }> {
  const row = await repo.insertAlbum(deps.db, { name: input.name, private: input.private, owner_id: user.id });
  return { id: row.id };
}

/** Adds gallery pictures (approved ones only); all or nothing. Pictures already in the album stay once. */
export async function addPictures(deps: AppDeps, user: SessionUser, input: { albumId: number; pictureIds: number[] }): Promise<{ added: number }> {
  await changeableAlbum(deps, user, input.albumId);
  const ids = [...new Set(input.pictureIds)];
  return deps.db.transaction().execute(async (trx) => {
    const found = await repo.approvedPictureIds(trx, ids);
    if (found.size !== ids.length) throw new AppError('BAD_REQUEST', albumMessages.noSuchPicture);
    await repo.addPictures(trx, input.albumId, ids);
    return { added: ids.length };
  });
}

/** Takes pictures out of the album; they stay in the gallery. */
export async function removePictures(deps: AppDeps, user: SessionUser, input: { albumId: number; pictureIds: number[] }): Promise<{ removed: number }> {
  await changeableAlbum(deps, user, input.albumId);
  return { removed: await repo.removePictures(deps.db, input.albumId, [...new Set(input.pictureIds)]) };
}

export async function rename(deps: AppDeps, user: SessionUser, input: { id: number; name: string }): Promise<{ id: number }> {
  await changeableAlbum(deps, user, input.id);
  await repo.renameAlbum(deps.db, input.id, input.name);
  return { id: input.id };
}

/** Deletes the album and its links; its pictures stay in the gallery. */
export async function remove(deps: AppDeps, user: SessionUser, input: { id: number }): Promise<{ id: number }> {
  await changeableAlbum(deps, user, input.id);
  await repo.deleteAlbum(deps.db, input.id);
  return { id: input.id };
}
