import { addClimbingPassInput, removeClimbingPassInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as climbing from './climbing.service.ts';

export const climbingRouter = router({
  list: procedure('climbing.list').query(({ ctx }) => climbing.list(ctx.deps, ctx.user)),
  add: procedure('climbing.add')
    .input(addClimbingPassInput)
    .mutation(({ ctx, input }) => climbing.add(ctx.deps, ctx.user, input)),
  remove: procedure('climbing.remove')
    .input(removeClimbingPassInput)
    .mutation(({ ctx, input }) => climbing.remove(ctx.deps, ctx.user, input)),
});
