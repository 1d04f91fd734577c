import {
  formatCaptureDate,
  mediaKind,
  pictureMessages,
  type CaptureDate,
  type PageInfo,
  type PageType,
  type PendingPicture,
  type Picture,
  type PicturePage,
} from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { readPage } from './pictures.layout.ts';
import type { Paging } from './pictures.paging.ts';
import * as repo from './pictures.repository.ts';
import { removePictureFiles } from './pictures.files.ts';
import { cachedGalleryRead, galleryChanged } from './pictures.page-cache.ts';

const lookerOf = (user: SessionUser): repo.Looker => ({ id: user.id, admin: user.level >= 3 });
/** A cached answer's key: admins see every pending picture, members their own. */
const cacheKey = (user: SessionUser, what: string, type: PageType, index: number) => `${user.level >= 3 ? 'admin' : user.id} ${what} ${type} ${index}`;

export function toPicture(row: repo.PictureCard): Picture {
  return {
    id: row.id,
    desc: row.caption,
    fileType: row.file_type,
    target: `${row.stem}.${row.file_type}`,
    uploaded: formatCaptureDate(row),
    kind: mediaKind(row.file_type),
    pending: row.status === 'pending',
    thumb: row.thumb_status,
    thumbWidth: row.thumb_width,
    thumbHeight: row.thumb_height,
    display: row.has_display,
    poster: row.has_poster,
    previewNeeds: row.preview_needs,
    previewTooLarge: row.preview_too_large,
    uploader: row.uploader,
  };
}

function emptyLabel(type: PageType, paging: Paging): string {
  if (paging.total === 0) return typeof type === 'number' ? 'All Pictures' : 'No Pictures Yet';
  return 'No Such Page';
}

/** `/api/pictures/get_all`: how many pictures the page holds and how many pages the type has. */
export function pageInfo(deps: AppDeps, user: SessionUser, type: PageType, index: number): Promise<PageInfo> {
  return cachedGalleryRead(deps.db, cacheKey(user, 'info', type, index), () => readPageInfo(deps, user, type, index));
}

async function readPageInfo(deps: AppDeps, user: SessionUser, type: PageType, index: number): Promise<PageInfo> {
  const { paging } = await readPage(deps.db, lookerOf(user), type, index, null);
  return {
    pageLength: paging.page?.length ?? 0,
    pageCount: paging.pageCount,
    label: paging.page?.label ?? emptyLabel(type, paging),
  };
}

/** The whole page in one call: its label, counts and pictures (the client's grid). */
export function page(deps: AppDeps, user: SessionUser, type: PageType, index: number): Promise<PicturePage> {
  return cachedGalleryRead(deps.db, cacheKey(user, 'page', type, index), () => readWholePage(deps, user, type, index), (p) => p.pictures.length);
}

async function readWholePage(deps: AppDeps, user: SessionUser, type: PageType, index: number): Promise<PicturePage> {
  const { paging, pictures } = await readPage(deps.db, lookerOf(user), type, index, { offset: 0, limit: Number.POSITIVE_INFINITY });
  return {
    type,
    index,
    pageLength: paging.page?.length ?? 0,
    pageCount: paging.pageCount,
    total: paging.total,
    label: paging.page?.label ?? emptyLabel(type, paging),
    pictures: pictures.map(toPicture),
  };
}

/** `/api/pictures/get`: the picture at position `pic` of a page. */
export async function pictureAt(deps: AppDeps, user: SessionUser, type: PageType, index: number, pic: number): Promise<Picture> {
  const { pictures } = await readPage(deps.db, lookerOf(user), type, index, { offset: pic, limit: 1 });
  const [row] = pictures;
  if (!row) throw new AppError('NOT_FOUND', pictureMessages.noPicture);
  return toPicture(row);
}

export async function pending(deps: AppDeps): Promise<PendingPicture[]> {
  const rows = await repo.pendingList(deps.db);
  return rows.map((row) => ({ ...toPicture(row), uploadedAt: row.created_at.toISOString(), guest: row.guest_name }));
}

export async function pendingCount(deps: AppDeps): Promise<{ count: number }> {
  return { count: await repo.pendingCount(deps.db) };
}

export async function approve(deps: AppDeps, id: number): Promise<Picture> {
  await deps.db.transaction().execute((trx) => repo.approve(trx, id));
  galleryChanged(deps.db);
  const row = await repo.findById(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND', pictureMessages.notFound);
  return toPicture(row);
}

/** Rejecting a pending picture deletes it and its files; deleting works on any picture. */
export async function remove(deps: AppDeps, id: number, onlyPending: boolean): Promise<{ id: number }> {
  const row = await deps.db.transaction().execute(async (trx) => {
    const found = await repo.findById(trx, id);
    if (!found || (onlyPending && found.status !== 'pending')) return undefined;
    return repo.deletePicture(trx, id);
  });
  if (!row) throw new AppError('NOT_FOUND', pictureMessages.notFound);
  galleryChanged(deps.db);
  await removePictureFiles(deps, row.stem, row.file_type);
  return { id };
}

export async function update(deps: AppDeps, id: number, caption: string, date: CaptureDate): Promise<Picture> {
  const row = await deps.db.transaction().execute((trx) => repo.updatePicture(trx, id, caption, date));
  galleryChanged(deps.db);
  if (!row) throw new AppError('NOT_FOUND', pictureMessages.notFound);
  const full = await repo.findById(deps.db, id);
  if (!full) throw new AppError('NOT_FOUND', pictureMessages.notFound);
  return toPicture(full);
}
