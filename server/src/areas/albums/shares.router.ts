import { createShareInput, guestSearchInput, createUploadShareInput, guestSocialInput, openShareInput, shareIdInput, sharesOfAlbumInput, unlockShareInput, uploadInfoInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as shares from './shares.service.ts';

export const sharesRouter = router({
  create: procedure('shares.create')
    .input(createShareInput)
    .mutation(({ ctx, input }) => shares.create(ctx.deps, ctx.user, ctx.origin, input)),
  createUpload: procedure('shares.createUpload')
    .input(createUploadShareInput)
    .mutation(({ ctx, input }) => shares.createUpload(ctx.deps, ctx.user, ctx.origin, input)),
  list: procedure('shares.list')
    .input(sharesOfAlbumInput)
    .query(({ ctx, input }) => shares.listOfAlbum(ctx.deps, ctx.user, input.albumId)),
  revoke: procedure('shares.revoke')
    .input(shareIdInput)
    .mutation(({ ctx, input }) => shares.revoke(ctx.deps, ctx.user, input.id)),
  active: procedure('shares.active').query(({ ctx }) => shares.active(ctx.deps, ctx.user)),
  // The guests' calls: public rows, each checks its token (shares.service.ts liveLink). Opening counts a
  // use, so it is a mutation (no query writes).
  open: procedure('shares.open')
    .input(openShareInput)
    .mutation(({ ctx, input }) => shares.open(ctx.deps, input)),
  unlock: procedure('shares.unlock')
    .input(unlockShareInput)
    .mutation(({ ctx, input }) => shares.unlock(ctx.deps, input)),
  uploadInfo: procedure('shares.uploadInfo')
    .input(uploadInfoInput)
    .query(({ ctx, input }) => shares.uploadInfo(ctx.deps, input.token)),
  social: procedure('shares.social')
    .input(guestSocialInput)
    .query(({ ctx, input }) => shares.guestSocial(ctx.deps, input)),
  search: procedure('shares.search')
    .input(guestSearchInput)
    .query(({ ctx, input }) => shares.guestSearch(ctx.deps, input)),
});
