import {
  commentInput,
  deleteCommentInput,
  editCommentInput,
  heartInput,
  pageInput,
  pictureAtInput,
  pictureIdInput,
  picturesByIdInput,
  searchInput,
  suggestInput,
  socialInput,
  updatePictureInput,
} from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as pictures from './pictures.service.ts';
import { onThisDay } from './pictures.on-this-day.ts';
import * as searching from './pictures.search.ts';
import * as social from './pictures.social.ts';
import { mediaCheck, mediaStoreState } from './pictures.startup.ts';

export const picturesRouter = router({
  page: procedure('pictures.page')
    .input(pageInput)
    .query(({ ctx, input }) => pictures.page(ctx.deps, ctx.user, input.type, input.index)),
  pageInfo: procedure('pictures.pageInfo')
    .input(pageInput)
    .query(({ ctx, input }) => pictures.pageInfo(ctx.deps, ctx.user, input.type, input.index)),
  get: procedure('pictures.get')
    .input(pictureAtInput)
    .query(({ ctx, input }) => pictures.pictureAt(ctx.deps, ctx.user, input.type, input.index, input.pic)),
  pending: procedure('pictures.pending').query(({ ctx }) => pictures.pending(ctx.deps)),
  pendingCount: procedure('pictures.pendingCount').query(({ ctx }) => pictures.pendingCount(ctx.deps)),
  approve: procedure('pictures.approve')
    .input(pictureIdInput)
    .mutation(({ ctx, input }) => pictures.approve(ctx.deps, input.id)),
  reject: procedure('pictures.reject')
    .input(pictureIdInput)
    .mutation(({ ctx, input }) => pictures.remove(ctx.deps, input.id, true)),
  update: procedure('pictures.update')
    .input(updatePictureInput)
    .mutation(({ ctx, input }) => pictures.update(ctx.deps, input.id, input.caption, input.date)),
  mediaCheck: procedure('pictures.mediaCheck').query(({ ctx }) => mediaCheck(ctx.deps)),
  mediaStore: procedure('pictures.mediaStore').query(({ ctx }) => mediaStoreState(ctx.deps)),
  delete: procedure('pictures.delete')
    .input(pictureIdInput)
    .mutation(({ ctx, input }) => pictures.remove(ctx.deps, input.id, false)),
  social: procedure('pictures.social')
    .input(socialInput)
    .query(({ ctx, input }) => social.social(ctx.deps, ctx.user, input.id)),
  heart: procedure('pictures.heart')
    .input(heartInput)
    .mutation(({ ctx, input }) => social.heart(ctx.deps, ctx.user, input.id, input.on)),
  comment: procedure('pictures.comment')
    .input(commentInput)
    .mutation(({ ctx, input }) => social.comment(ctx.deps, ctx.user, input.id, input.text)),
  editComment: procedure('pictures.editComment')
    .input(editCommentInput)
    .mutation(({ ctx, input }) => social.editComment(ctx.deps, ctx.user, input.commentId, input.text)),
  deleteComment: procedure('pictures.deleteComment')
    .input(deleteCommentInput)
    .mutation(({ ctx, input }) => social.deleteComment(ctx.deps, ctx.user, input.commentId)),
  onThisDay: procedure('pictures.onThisDay').query(({ ctx }) => onThisDay(ctx.deps, ctx.user)),
  search: procedure('pictures.search')
    .input(searchInput)
    .query(({ ctx, input }) => searching.search(ctx.deps, ctx.user, input)),
  suggest: procedure('pictures.suggest')
    .input(suggestInput)
    .query(({ ctx, input }) => searching.suggest(ctx.deps, ctx.user, input)),
  map: procedure('pictures.map').query(({ ctx }) => searching.map(ctx.deps, ctx.user)),
  byIds: procedure('pictures.byIds')
    .input(picturesByIdInput)
    .query(({ ctx, input }) => searching.byIds(ctx.deps, ctx.user, input.ids)),
});
