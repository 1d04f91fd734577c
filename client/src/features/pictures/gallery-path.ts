import { DEFAULT_GALLERY_PATH, galleryPathOf, MAX_PAGE_SIZE, type PageType } from '@site/contracts/pictures';

/**
 * /personal/pictures/{type}/{index}: exactly five path segments ('', personal, pictures, type,
 * index), type month, year or a page size, index a page from 0. Anything else is null (redirect).
 */
export function parseGalleryPath(pathname: string): { type: PageType; index: number } | null {
  const segments = pathname.split('/');
  if (segments.length !== 5 || segments[1] !== 'personal' || segments[2] !== 'pictures') return null;
  const [rawType = '', rawIndex = ''] = segments.slice(3);
  if (!/^\d{1,9}$/.test(rawIndex)) return null;
  const index = Number(rawIndex);
  if (rawType === 'month' || rawType === 'year') return { type: rawType, index };
  if (/^\d{1,4}$/.test(rawType)) {
    const size = Number(rawType);
    if (size >= 1 && size <= MAX_PAGE_SIZE) return { type: size, index };
  }
  return null;
}

export const galleryPath = galleryPathOf;
export { DEFAULT_GALLERY_PATH };
