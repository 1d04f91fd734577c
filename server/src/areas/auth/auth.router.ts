import { loginInput, signupInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import type { Context } from '../../trpc/context.ts';
import * as auth from './auth.service.ts';

const clientOf = (ctx: Context): auth.Client => ({ ip: ctx.ip, deviceToken: ctx.device.token });

export const authRouter = router({
  status: procedure('auth.status').query(({ ctx }) => auth.statusOf(ctx.user)),

  signup: procedure('auth.signup')
    .input(signupInput)
    .mutation(async ({ ctx, input }) => {
      const user = await auth.signup(ctx.deps, input, clientOf(ctx));
      ctx.cookie.set(await auth.startSession(ctx.deps, user, ctx.sessionHash));
      ctx.device.set(await ctx.deps.devices.issue(user.id));
      return auth.statusOf(user);
    }),

  login: procedure('auth.login')
    .input(loginInput)
    .mutation(async ({ ctx, input }) => {
      const { user, trusted } = await auth.login(ctx.deps, input, clientOf(ctx));
      ctx.cookie.set(await auth.startSession(ctx.deps, user, ctx.sessionHash));
      if (!trusted) ctx.device.set(await ctx.deps.devices.issue(user.id));
      auth.assertNotPending(user);
      return auth.statusOf(user);
    }),

  logout: procedure('auth.logout').mutation(async ({ ctx }) => {
    await auth.endSession(ctx.deps, ctx.sessionHash);
    ctx.cookie.clear();
    return { ok: true as const };
  }),
});
