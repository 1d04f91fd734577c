import { sql } from 'kysely';
import { pictureMessages, placeLabel, socialMessages, type PictureSocial } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { recordPictureSocial } from '../notifications/notifications.events.ts';

/**
 * Hearts and comments under a picture. Members from level 1 read them on every picture they see and
 * add them to approved pictures (admins also to pending ones); each member edits and deletes their
 * own comments, admins delete anyone's. Every change reaches open viewers through the live feed's
 * `pictureSocial` (the tables' triggers, migration 20261129_pictures_social).
 */

/** Who reads: a member (`admin` may delete any comment), or null for a guest who may only look. */
export type SocialViewer = { id: number; admin: boolean };

export const socialViewerOf = (user: SessionUser): SocialViewer => ({ id: user.id, admin: user.level >= 3 });

/**
 * The hearts and comments of picture `pictureId` as `viewer` sees them. Checks nothing about the
 * picture: the caller has decided the viewer may see it (a member's gallery: `social` below; a
 * guest's shared album: the album's own rule).
 */
export async function socialOf(db: Executor, pictureId: number, viewer: SocialViewer | null): Promise<PictureSocial> {
  const [hearts, comments, place] = await Promise.all([
    db
      .selectFrom('picture_hearts')
      .innerJoin('users', 'users.id', 'picture_hearts.user_id')
      .select(['picture_hearts.user_id', 'users.name'])
      .where('picture_hearts.picture_id', '=', pictureId)
      .orderBy('picture_hearts.created_at')
      .orderBy('picture_hearts.user_id')
      .execute(),
    db
      .selectFrom('picture_comments')
      .innerJoin('users', 'users.id', 'picture_comments.user_id')
      .select(['picture_comments.id', 'picture_comments.user_id', 'picture_comments.text', 'picture_comments.created_at', 'picture_comments.edited_at', 'users.name'])
      .where('picture_comments.picture_id', '=', pictureId)
      .orderBy('picture_comments.id')
      .execute(),
    db.selectFrom('picture_places').select(['town', 'country']).where('picture_id', '=', pictureId).executeTakeFirst(),
  ]);
  return {
    pictureId,
    place: place ? placeLabel(place.town, place.country) : null,
    hearts: { count: hearts.length, mine: viewer !== null && hearts.some((h) => h.user_id === viewer.id), names: hearts.map((h) => h.name) },
    comments: comments.map((c) => {
      const mine = viewer !== null && c.user_id === viewer.id;
      return {
        id: c.id,
        author: c.name,
        text: c.text,
        createdAt: c.created_at.toISOString(),
        editedAt: c.edited_at?.toISOString() ?? null,
        mine,
        mayDelete: mine || (viewer?.admin ?? false),
      };
    }),
  };
}

/**
 * The picture as the member may use it: one the gallery shows them (approved, their own pending one,
 * or any for admins), else NOT_FOUND, the same answer as for no picture at all. To write, it must
 * also be approved unless the member is an admin. Inside a transaction the row is locked against
 * deletion (FOR KEY SHARE) until the write commits, so a heart never lands on a picture deleted meanwhile.
 */
export async function usablePicture(db: Executor, user: SessionUser, pictureId: number, write: boolean): Promise<void> {
  const admin = user.level >= 3;
  const row = await db
    .selectFrom('pictures')
    .select(['status', 'uploaded_by'])
    .where('id', '=', pictureId)
    .$if(write, (q) => q.forKeyShare())
    .executeTakeFirst();
  if (!row || (row.status === 'pending' && !admin && row.uploaded_by !== user.id)) throw new AppError('NOT_FOUND', pictureMessages.notFound);
  if (write && row.status === 'pending' && !admin) throw new AppError('FORBIDDEN', socialMessages.pending);
}

/** `pictures.social`: a picture's hearts and comments, for a member who sees the picture. */
export async function social(deps: AppDeps, user: SessionUser, pictureId: number): Promise<PictureSocial> {
  await usablePicture(deps.db, user, pictureId, false);
  return socialOf(deps.db, pictureId, socialViewerOf(user));
}

/** The member's heart on the picture (once), and its notification to the uploader; inside the caller's transaction. */
export async function giveHeart(trx: Executor, user: Pick<SessionUser, 'id' | 'name'>, pictureId: number): Promise<void> {
  const given = await trx
    .insertInto('picture_hearts')
    .values({ picture_id: pictureId, user_id: user.id })
    .onConflict((oc) => oc.columns(['picture_id', 'user_id']).doNothing())
    .returning('picture_id')
    .executeTakeFirst();
  if (given) await recordPictureSocial(trx, pictureId, user, 'heart', `${user.name} gave your picture a heart`, '');
}

/** `pictures.heart`: gives (`on`) or takes back the member's heart; giving twice is one heart. */
export async function heart(deps: AppDeps, user: SessionUser, pictureId: number, on: boolean): Promise<PictureSocial> {
  await deps.db.transaction().execute(async (trx) => {
    await usablePicture(trx, user, pictureId, true);
    if (on) {
      await giveHeart(trx, user, pictureId);
    } else {
      await trx.deleteFrom('picture_hearts').where('picture_id', '=', pictureId).where('user_id', '=', user.id).execute();
    }
  });
  return socialOf(deps.db, pictureId, socialViewerOf(user));
}

/** `pictures.comment`: adds the member's comment (already trimmed and checked by the shared text type). */
export async function comment(deps: AppDeps, user: SessionUser, pictureId: number, text: string): Promise<PictureSocial> {
  await deps.db.transaction().execute(async (trx) => {
    await usablePicture(trx, user, pictureId, true);
    await trx.insertInto('picture_comments').values({ picture_id: pictureId, user_id: user.id, text, edited_at: null }).execute();
    await recordPictureSocial(trx, pictureId, user, 'comment', `${user.name} commented on your picture`, text);
  });
  return socialOf(deps.db, pictureId, socialViewerOf(user));
}

/** The comment, locked for the change; NOT_FOUND when there is none or its picture is not the member's to see. */
async function commentFor(db: Executor, user: SessionUser, commentId: number): Promise<{ picture_id: number; user_id: number }> {
  const row = await db.selectFrom('picture_comments').select(['picture_id', 'user_id']).where('id', '=', commentId).forUpdate().executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', socialMessages.commentNotFound);
  try {
    await usablePicture(db, user, row.picture_id, false);
  } catch {
    throw new AppError('NOT_FOUND', socialMessages.commentNotFound);
  }
  return row;
}

/** `pictures.editComment`: the author alone changes the text; the comment is marked edited. */
export async function editComment(deps: AppDeps, user: SessionUser, commentId: number, text: string): Promise<PictureSocial> {
  const pictureId = await deps.db.transaction().execute(async (trx) => {
    const row = await commentFor(trx, user, commentId);
    if (row.user_id !== user.id) throw new AppError('FORBIDDEN', socialMessages.editOwnOnly);
    await trx.updateTable('picture_comments').set({ text, edited_at: sql<Date>`now()` }).where('id', '=', commentId).execute();
    return row.picture_id;
  });
  return socialOf(deps.db, pictureId, socialViewerOf(user));
}

/** `pictures.deleteComment`: the author, or any admin. */
export async function deleteComment(deps: AppDeps, user: SessionUser, commentId: number): Promise<PictureSocial> {
  const pictureId = await deps.db.transaction().execute(async (trx) => {
    const row = await commentFor(trx, user, commentId);
    if (row.user_id !== user.id && user.level < 3) throw new AppError('FORBIDDEN', socialMessages.deleteOwnOnly);
    await trx.deleteFrom('picture_comments').where('id', '=', commentId).execute();
    return row.picture_id;
  });
  return socialOf(deps.db, pictureId, socialViewerOf(user));
}
