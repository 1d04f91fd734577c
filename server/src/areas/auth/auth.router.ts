import { addPasskeyInput, confirmPasskeyInput, confirmPasswordInput, passkeyIdInput, passkeyLoginInput, renamePasskeyInput, changePasswordInput, createTokenInput, deviceIdInput, tokenIdInput, loginInput, resetPasswordInput, resetTokenInput, signupInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import type { Context } from '../../trpc/context.ts';
import * as auth from './auth.service.ts';
import * as account from './account.service.ts';
import * as reset from './reset-links.ts';
import * as tokens from './api-tokens.service.ts';
import * as passkeys from './passkeys.ts';

const clientOf = (ctx: Context): auth.Client => ({ ip: ctx.ip, deviceToken: ctx.device.token });
const sessionClient = (ctx: Context) => ({ ip: ctx.ip, userAgent: ctx.userAgent });
const rpOf = (ctx: Context) => passkeys.relyingParty(ctx.deps.config.publicUrl, ctx.origin);

export const authRouter = router({
  status: procedure('auth.status').query(({ ctx }) => auth.statusOf(ctx.user)),

  signup: procedure('auth.signup')
    .input(signupInput)
    .mutation(async ({ ctx, input }) => {
      const user = await auth.signup(ctx.deps, input, clientOf(ctx));
      ctx.cookie.set(await auth.startSession(ctx.deps, user, ctx.sessionHash, sessionClient(ctx)));
      ctx.device.set(await ctx.deps.devices.issue(user.id));
      return auth.statusOf(user);
    }),

  login: procedure('auth.login')
    .input(loginInput)
    .mutation(async ({ ctx, input }) => {
      const { user, trusted } = await auth.login(ctx.deps, input, clientOf(ctx));
      ctx.cookie.set(await auth.startSession(ctx.deps, user, ctx.sessionHash, sessionClient(ctx)));
      if (!trusted) ctx.device.set(await ctx.deps.devices.issue(user.id));
      auth.assertNotPending(user);
      return auth.statusOf(user);
    }),

  logout: procedure('auth.logout').mutation(async ({ ctx }) => {
    await auth.endSession(ctx.deps, ctx.sessionHash);
    ctx.cookie.clear();
    return { ok: true as const };
  }),

  changePassword: procedure('auth.changePassword')
    .input(changePasswordInput)
    .mutation(({ ctx, input }) => account.changePassword(ctx.deps, ctx, input)),
  devices: procedure('auth.devices').query(({ ctx }) => account.devices(ctx.deps, ctx)),
  signOutDevice: procedure('auth.signOutDevice')
    .input(deviceIdInput)
    .mutation(({ ctx, input }) => account.signOutDevice(ctx.deps, ctx, input.id)),
  signOutOthers: procedure('auth.signOutOthers').mutation(({ ctx }) => account.signOutOthers(ctx.deps, ctx)),

  tokens: procedure('auth.tokens').query(({ ctx }) => tokens.listTokens(ctx.deps, ctx.user.id)),
  createToken: procedure('auth.createToken')
    .input(createTokenInput)
    .mutation(({ ctx, input }) => tokens.createToken(ctx.deps, ctx, input.label, input.scopes ?? null)),
  revokeToken: procedure('auth.revokeToken')
    .input(tokenIdInput)
    .mutation(({ ctx, input }) => tokens.revokeToken(ctx.deps, ctx, input.id)),

  passkeys: procedure('auth.passkeys').query(({ ctx }) => passkeys.listPasskeys(ctx.deps, ctx.user.id)),
  passkeyRegistrationOptions: procedure('auth.passkeyRegistrationOptions').mutation(({ ctx }) => passkeys.registrationOptions(ctx.deps, ctx, rpOf(ctx))),
  addPasskey: procedure('auth.addPasskey')
    .input(addPasskeyInput)
    .mutation(({ ctx, input }) => passkeys.addPasskey(ctx.deps, ctx, rpOf(ctx), input)),
  renamePasskey: procedure('auth.renamePasskey')
    .input(renamePasskeyInput)
    .mutation(({ ctx, input }) => passkeys.renamePasskey(ctx.deps, ctx, input.id, input.name)),
  removePasskey: procedure('auth.removePasskey')
    .input(passkeyIdInput)
    .mutation(({ ctx, input }) => passkeys.removePasskey(ctx.deps, ctx, input.id)),
  confirmPassword: procedure('auth.confirmPassword')
    .input(confirmPasswordInput)
    .mutation(({ ctx, input }) => account.confirmPassword(ctx.deps, ctx, input.password)),
  confirmPasskey: procedure('auth.confirmPasskey')
    .input(confirmPasskeyInput)
    .mutation(({ ctx, input }) => passkeys.confirmPasskey(ctx.deps, ctx, rpOf(ctx), clientOf(ctx), input)),
  passkeyLoginOptions: procedure('auth.passkeyLoginOptions').mutation(({ ctx }) => passkeys.loginOptions(ctx.deps, rpOf(ctx), ctx.ip)),
  /** Signs in exactly like a password login: a fresh session, the device cookie, and a pending account refused (keeping its session). */
  passkeyLogin: procedure('auth.passkeyLogin')
    .input(passkeyLoginInput)
    .mutation(async ({ ctx, input }) => {
      const user = await passkeys.passkeyLogin(ctx.deps, rpOf(ctx), clientOf(ctx), input);
      ctx.cookie.set(await auth.startSession(ctx.deps, user, ctx.sessionHash, sessionClient(ctx)));
      if (!(await ctx.deps.devices.trustedFor(ctx.device.token, user.name))) ctx.device.set(await ctx.deps.devices.issue(user.id));
      auth.assertNotPending(user);
      return auth.statusOf(user);
    }),

  resetStatus: procedure('auth.resetStatus')
    .input(resetTokenInput)
    .query(({ ctx, input }) => reset.resetStatus(ctx.deps, input.token)),
  resetPassword: procedure('auth.resetPassword')
    .input(resetPasswordInput)
    .mutation(({ ctx, input }) => reset.resetPassword(ctx.deps, input)),
});
