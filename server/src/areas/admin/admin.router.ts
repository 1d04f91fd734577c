import { resetLinkInput, setLevelInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import { userActor } from '../../identity/session-user.ts';
import * as admin from './admin.service.ts';
import { createResetLink } from '../auth/auth.port.ts';

export const adminRouter = router({
  users: procedure('admin.users').query(({ ctx }) => admin.users(ctx.deps)),
  setLevel: procedure('admin.setLevel')
    .input(setLevelInput)
    .mutation(({ ctx, input }) => admin.setLevel(ctx.deps, userActor(ctx.user), input)),
  waitingCount: procedure('admin.waitingCount').query(({ ctx }) => admin.waitingCount(ctx.deps)),
  resetLink: procedure('admin.resetLink')
    .input(resetLinkInput)
    .mutation(({ ctx, input }) => createResetLink(ctx.deps, input.name)),
});
