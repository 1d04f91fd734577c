import { setLevelInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import { userActor } from '../../identity/session-user.ts';
import * as admin from './admin.service.ts';

export const adminRouter = router({
  users: procedure('admin.users').query(({ ctx }) => admin.users(ctx.deps)),
  setLevel: procedure('admin.setLevel')
    .input(setLevelInput)
    .mutation(({ ctx, input }) => admin.setLevel(ctx.deps, userActor(ctx.user), input)),
});
