import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { text } from '../text.ts';
import type { Picture } from '../pictures/pictures.schemas.ts';

export const peopleMessages = {
  badPerson: 'Choose a person',
  badFace: 'Choose a face',
  badPicture: 'Choose a picture',
  noSuchPerson: 'That person is not here any more',
  noSuchFace: 'That face is not here any more',
  noSuchPicture: 'That picture is not here',
  mergeTwo: 'Choose at least two people to merge',
  mergeTooMany: 'Merge at most 50 people at once',
  badHidden: 'Say whether the person is hidden',
  badEnabled: 'Say whether people are on',
  off: 'People are turned off on this site',
  hideNotYours: 'Only Family members, or whoever named this person, may hide or show them',
  samePerson: 'Choose two different people',
  badSame: 'Say whether they are the same person',
  personOrName: 'Choose a person or write a name',
} as const;

export const tagMessages = {
  badTag: 'Write a tag',
  noSuchTag: 'You have no such tag on this picture',
  pending: 'Tags open once an admin has approved the picture',
} as const;

/** The level that sees hidden people and may hide or show anyone (Family); below it, only the person's namer (people.routes.ts). */
export const HIDDEN_PEOPLE_LEVEL = 2;

/** Longest name of a person and longest tag. */
export const PERSON_NAME_MAX = 60;
export const TAG_MAX = 40;

const personId = rowId(peopleMessages.badPerson);
const pictureId = rowId(peopleMessages.badPicture);

export const personName = text({ label: 'Name', max: PERSON_NAME_MAX, trim: true, min: 1, visible: true });
/** A tag: trimmed, lower case (the detector's labels are), one line. */
export const tagText = text({ label: 'Tag', max: TAG_MAX, trim: true, min: 1, visible: true }).transform((t) => t.toLowerCase());

/** `people.list()`; `{ includeHidden: true }` lists hidden people too (to show them again). */
export const listPeopleInput = z.object({ includeHidden: z.boolean({ error: peopleMessages.badHidden }).optional() }).optional();
export const personIdInput = z.object({ id: personId });
/** A name, or null to forget it. */
export const namePersonInput = z.object({ id: personId, name: personName.nullable() });
export const mergePeopleInput = z.object({
  ids: z.array(personId).min(2, { error: peopleMessages.mergeTwo }).max(50, { error: peopleMessages.mergeTooMany }),
});
export const removeFaceInput = z.object({ faceId: rowId(peopleMessages.badFace) });
export const hidePersonInput = z.object({ id: personId, hidden: z.boolean({ error: peopleMessages.badHidden }) });
export const pictureFacesInput = z.object({ pictureId });
export const setPeopleEnabledInput = z.object({ enabled: z.boolean({ error: peopleMessages.badEnabled }) });

/** `people.answer`: are people `a` and `b` one person? */
export const answerPeopleInput = z
  .object({ a: personId, b: personId, same: z.boolean({ error: peopleMessages.badSame }) })
  .refine((v) => v.a !== v.b, { error: peopleMessages.samePerson });
/** `people.assignFace`: the face is this person's (`personId`), or a new person's called `name`. */
export const assignFaceInput = z
  .object({ faceId: rowId(peopleMessages.badFace), personId: personId.optional(), name: personName.optional() })
  .refine((v) => (v.personId === undefined) !== (v.name === undefined), { error: peopleMessages.personOrName });
export const tagsInput = z.object({ pictureId });
export const tagInput = z.object({ pictureId, tag: tagText });

/** One person's card: the face that stands for them (a box on a picture's thumbnail, 0..1 of its size). */
export type FaceBox = { x: number; y: number; w: number; h: number };
export type PersonCard = {
  id: number;
  name: string | null;
  faceCount: number;
  /** The pictures those faces are in (two faces of one picture, merged by hand, are one picture). */
  pictureCount: number;
  hidden: boolean;
  cover: { pictureId: number; stem: string; box: FaceBox } | null;
  /** The earliest known capture date of their pictures (null when none has a year). */
  first: { year: number; month: number; day: number } | null;
};
/** `people.unassigned()`: a face that belongs to nobody (taken out of a person), newest picture first. */
export type UnassignedFace = { faceId: number; pictureId: number; stem: string; box: FaceBox };
/** At most this many faces without a person are listed at once. */
export const UNASSIGNED_MAX = 60;
/** `pictures`: the same pictures as `pictureIds`, as the gallery's viewer shows them. */
export type PersonDetail = { id: number; name: string | null; hidden: boolean; pictureIds: number[]; pictures: Picture[] };
export type PictureFace = { faceId: number; personId: number | null; name: string | null; box: FaceBox };
export type PictureTag = { tag: string; confidence: number | null; source: 'model' | 'member'; mine: boolean };
/** `people.suggestions()`: two people who may be one, and how alike their faces are on average (0..1). */
export type PeopleSuggestion = { a: number; b: number; similarity: number };
export type RegroupResult = { faces: number; people: number; moved: number };
export type PeopleStatus = { indexed: number; total: number };
export type PeopleSettings = { enabled: boolean; indexed: number; total: number; failed: number };

export const PEOPLE_PATH = '/personal/pictures/people';
export const personPath = (id: number) => `${PEOPLE_PATH}/${id}`;
