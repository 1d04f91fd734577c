/*
 * Hearts and comments under a picture, and the hub's "On this day": the words, limits and shapes a
 * page uses, without zod (social.schemas.ts validates the calls), so the hub's card loads no schema.
 */

/** Longest comment, after trimming. */
export const COMMENT_MAX = 2000;
/** Most pictures the hub's "On this day" card shows (newest year first); `total` says how many there are. */
export const ON_THIS_DAY_MAX = 12;

export const socialMessages = {
  badId: "A picture is named by its id, a whole number from 1",
  badCommentId: 'A comment is named by its id, a whole number from 1',
  badOn: 'On must be true (give a heart) or false (take it back)',
  pending: 'Hearts and comments open once an admin has approved the picture',
  commentNotFound: 'That comment does not exist',
  editOwnOnly: 'You can only edit your own comments',
  deleteOwnOnly: 'You can only delete your own comments',
};

/** One comment as the viewer shows it. `mine`: the viewer wrote it (may edit and delete); `mayDelete`: also admins. */
export type SocialComment = {
  id: number;
  author: string;
  text: string;
  /** ISO 8601. */
  createdAt: string;
  editedAt: string | null;
  mine: boolean;
  mayDelete: boolean;
};

/** A picture's hearts (who gave them, oldest first) and comments (oldest first). */
export type PictureSocial = {
  pictureId: number;
  /** Where it was taken, as the map and search name it ("Arezzo, Italy"); null when unknown, and for a guest whose link leaves location out. */
  place: string | null;
  hearts: { count: number; mine: boolean; names: string[] };
  comments: SocialComment[];
};

/** One picture of "On this day": taken on today's month and day, `yearsAgo` years ago. */
export type OnThisDayPicture = {
  id: number;
  caption: string;
  year: number;
  yearsAgo: number;
  kind: 'image' | 'video' | 'other';
  /** The thumbnail's URL, or null while there is none (being made, or none can be made). */
  thumb: string | null;
  /** The gallery's month page opened on this picture in the viewer. */
  link: string;
};

export type OnThisDay = { month: number; day: number; total: number; pictures: OnThisDayPicture[] };

/** "3 years ago", "1 year ago". */
export const yearsAgoText = (years: number) => `${years} ${years === 1 ? 'year' : 'years'} ago`;

/** Who gave hearts, as a sentence: "Ann", "Ann and Bob", "Ann, Bob and Cy". */
export function heartNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** A picture's place in words: "Arezzo, Italy", the country alone far from every town, else null. */
export function placeLabel(town: string | null, country: string | null): string | null {
  return [town, country].filter((part): part is string => part !== null && part !== '').join(', ') || null;
}
