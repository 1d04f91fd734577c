import { loginInput, signupInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as auth from './auth.service.ts';

export const authRouter = router({
  status: procedure('auth.status').query(({ ctx }) => auth.statusOf(ctx.user)),

  signup: procedure('auth.signup')
    .input(signupInput)
    .mutation(async ({ ctx, input }) => {
      const user = await auth.signup(ctx.deps, input);
      ctx.cookie.set(await auth.startSession(ctx.deps, user, ctx.sessionHash));
      return auth.statusOf(user);
    }),

  login: procedure('auth.login')
    .input(loginInput)
    .mutation(async ({ ctx, input }) => {
      const user = await auth.login(ctx.deps, input, ctx.ip);
      ctx.cookie.set(await auth.startSession(ctx.deps, user, ctx.sessionHash));
      auth.assertNotPending(user);
      return auth.statusOf(user);
    }),

  logout: procedure('auth.logout').mutation(async ({ ctx }) => {
    await auth.endSession(ctx.deps, ctx.sessionHash);
    ctx.cookie.clear();
    return { ok: true as const };
  }),
});
