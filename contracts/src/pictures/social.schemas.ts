import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { text } from '../text.ts';
import { COMMENT_MAX, socialMessages } from './social.rules.ts';

const pictureId = rowId(socialMessages.badId);
const commentId = rowId(socialMessages.badCommentId);

export const commentText = text({ label: 'Comment', max: COMMENT_MAX, trim: true, min: 1, multiline: true, visible: true });

export const socialInput = z.object({ id: pictureId });
export const heartInput = z.object({ id: pictureId, on: z.boolean({ error: socialMessages.badOn }) });
export const commentInput = z.object({ id: pictureId, text: commentText });
export const editCommentInput = z.object({ commentId, text: commentText });
export const deleteCommentInput = z.object({ commentId });
