import type { albumsRoutes, sharesRoutes } from '@site/contracts';
import type { AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const albumsSamples = {
  'albums.list': undefined,
  'albums.get': { id: 1 },
  'albums.holding': { pictureId: 1 },
  'albums.create': { name: 'Holidays', private: false },
  'albums.addPictures': { albumId: 1, pictureIds: [1] },
  'albums.removePictures': { albumId: 1, pictureIds: [1] },
  'albums.rename': { id: 1, name: 'Summer' },
  'albums.delete': { id: 1 },
} satisfies AreaSamples<typeof albumsRoutes>;

export const sharesSamples = {
  'shares.create': { albumId: 1, expiresInDays: 7 },
  'shares.createUpload': { expiresInDays: 7 },
  'shares.list': { albumId: 1 },
  'shares.revoke': { id: 1 },
  'shares.active': undefined,
  'shares.open': { token: 'AAAAAAAAAAAAAAAAAAAAAA' },
  'shares.unlock': { token: 'AAAAAAAAAAAAAAAAAAAAAA', password: 'secret' },
  'shares.uploadInfo': { token: 'AAAAAAAAAAAAAAAAAAAAAA' },
  'shares.social': { token: 'AAAAAAAAAAAAAAAAAAAAAA', pictureId: 1 },
  'shares.search': { token: 'AAAAAAAAAAAAAAAAAAAAAA', q: 'beach' },
} satisfies AreaSamples<typeof sharesRoutes>;
