import { choreCreateInput, choreDoneInput, choreIdInput, chorePointsInput, choreUndoInput, choreUpdateInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as chores from './chores.service.ts';

export const choresRouter = router({
  list: procedure('chores.list').query(({ ctx }) => chores.list(ctx.deps)),
  create: procedure('chores.create')
    .input(choreCreateInput)
    .mutation(({ ctx, input }) => chores.create(ctx.deps, ctx.user, input)),
  update: procedure('chores.update')
    .input(choreUpdateInput)
    .mutation(({ ctx, input }) => chores.update(ctx.deps, input)),
  delete: procedure('chores.delete')
    .input(choreIdInput)
    .mutation(({ ctx, input }) => chores.remove(ctx.deps, input.id)),
  done: procedure('chores.done')
    .input(choreDoneInput)
    .mutation(({ ctx, input }) => chores.done(ctx.deps, ctx.user, input)),
  undo: procedure('chores.undo')
    .input(choreUndoInput)
    .mutation(({ ctx, input }) => chores.undo(ctx.deps, ctx.user, input)),
  points: procedure('chores.points')
    .input(chorePointsInput)
    .query(({ ctx, input }) => chores.points(ctx.deps, input.month)),
});
