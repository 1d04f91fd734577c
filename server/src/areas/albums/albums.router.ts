import { albumIdInput, albumPicturesInput, createAlbumInput, pictureOfAlbumsInput, renameAlbumInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as albums from './albums.service.ts';

export const albumsRouter = router({
  list: procedure('albums.list').query(({ ctx }) => albums.list(ctx.deps, ctx.user)),
  get: procedure('albums.get')
    .input(albumIdInput)
    .query(({ ctx, input }) => albums.get(ctx.deps, ctx.user, input.id)),
  holding: procedure('albums.holding')
    .input(pictureOfAlbumsInput)
    .query(({ ctx, input }) => albums.holding(ctx.deps, ctx.user, input.pictureId)),
  create: procedure('albums.create')
    .input(createAlbumInput)
    .mutation(({ ctx, input }) => albums.create(ctx.deps, ctx.user, input)),
  addPictures: procedure('albums.addPictures')
    .input(albumPicturesInput)
    .mutation(({ ctx, input }) => albums.addPictures(ctx.deps, ctx.user, input)),
  removePictures: procedure('albums.removePictures')
    .input(albumPicturesInput)
    .mutation(({ ctx, input }) => albums.removePictures(ctx.deps, ctx.user, input)),
  rename: procedure('albums.rename')
    .input(renameAlbumInput)
    .mutation(({ ctx, input }) => albums.rename(ctx.deps, ctx.user, input)),
  delete: procedure('albums.delete')
    .input(albumIdInput)
    .mutation(({ ctx, input }) => albums.remove(ctx.deps, ctx.user, input)),
});
