import type { peopleRoutes } from '@site/contracts';
import type { AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const peopleSamples = {
  'people.list': undefined,
  'people.get': { id: 1 },
  'people.name': { id: 1, name: 'Grandma' },
  'people.merge': { ids: [1, 2] },
  'people.removeFace': { faceId: 1 },
  'people.hide': { id: 1, hidden: true },
  'people.suggestions': undefined,
  'people.answer': { a: 1, b: 2, same: false },
  'people.assignFace': { faceId: 1, name: 'Grandpa' },
  'people.unassigned': undefined,
  'people.regroup': undefined,
  'people.status': undefined,
  'people.inPicture': { pictureId: 1 },
  'people.settings': undefined,
  'people.setEnabled': { enabled: true },
  'tags.list': { pictureId: 1 },
  'tags.add': { pictureId: 1, tag: 'Beach' },
  'tags.remove': { pictureId: 1, tag: 'beach' },
} satisfies AreaSamples<typeof peopleRoutes>;
