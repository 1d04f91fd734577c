import { describe, expect, it } from 'vitest';
import { parseGalleryPath } from './gallery-path.ts';

describe('gallery paths', () => {
  it('takes exactly five segments with a known type and a page index', () => {
    expect(parseGalleryPath('/personal/pictures/month/0')).toEqual({ type: 'month', index: 0 });
    expect(parseGalleryPath('/personal/pictures/year/3')).toEqual({ type: 'year', index: 3 });
    expect(parseGalleryPath('/personal/pictures/24/2')).toEqual({ type: 24, index: 2 });
    for (const bad of [
      '/personal/pictures',
      '/personal/pictures/',
      '/personal/pictures/month',
      '/personal/pictures/month/0/',
      '/personal/pictures/month/0/extra',
      '/personal/pictures/week/0',
      '/personal/pictures/0/0',
      '/personal/pictures/month/-1',
      '/personal/pictures/month/x',
    ]) {
      expect(parseGalleryPath(bad), bad).toBeNull();
    }
  });
});
