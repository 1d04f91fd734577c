import type { Picture } from '@site/contracts/pictures';

/** A picture as pictures.page lists it, for the unit tests of the gallery's components. */
export const testPicture = (change: Partial<Picture> = {}): Picture => ({
  id: 1,
  desc: 'Beach',
  fileType: 'jpg',
  target: `${'a'.repeat(32)}.jpg`,
  uploaded: '2024-07-15',
  kind: 'image',
  pending: false,
  thumb: 'ready',
  thumbWidth: 400,
  thumbHeight: 300,
  display: false,
  poster: false,
  previewNeeds: null,
  previewTooLarge: false,
  uploader: 'owner',
  ...change,
});
