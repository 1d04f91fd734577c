import type { AppDeps } from '../../deps.ts';

/** Where a picture's files live in the media store: `pictures/<stem>.<type>` and its derived WebPs. */
export type Variant = 'thumb' | 'display' | 'poster';
export const VARIANTS: readonly Variant[] = ['thumb', 'display', 'poster'];

export const originalKey = (stem: string, fileType: string) => `pictures/${stem}.${fileType}`;
export const variantKey = (stem: string, variant: Variant) => `pictures/${stem}.${variant}.webp`;

/**
 * A requested file name, read strictly: 32 hex characters, then either the original's type or a
 * variant. Anything else (traversal, encoded slashes, other names) is null: no request text ever
 * reaches the file system, only a key rebuilt from the stem and the row.
 */
export function parseFileName(name: string): { stem: string; variant: Variant | null; ext: string } | null {
  const m = /^([0-9a-f]{32})\.(?:(thumb|display|poster)\.webp|([a-z0-9]{2,5}))$/.exec(name);
  if (!m?.[1]) return null;
  if (m[2]) return { stem: m[1], variant: m[2] as Variant, ext: 'webp' };
  return { stem: m[1], variant: null, ext: m[3] ?? '' };
}

/** Removes a picture's original and every derived file (a missing one is fine). */
export async function removePictureFiles(deps: AppDeps, stem: string, fileType: string): Promise<void> {
  await Promise.all([deps.media.delete(originalKey(stem, fileType)), ...VARIANTS.map((v) => deps.media.delete(variantKey(stem, v)))]);
}
