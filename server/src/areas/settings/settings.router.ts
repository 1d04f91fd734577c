import { colorsSchema, dismissSplashInput, navbarStyleSchema } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import { signedIn } from '../../trpc/signed-in.ts';
import * as settings from './settings.service.ts';

export const settingsRouter = router({
  colors: procedure('settings.colors').query(({ ctx }) => settings.colors(ctx.deps, ctx.user)),
  saveColors: procedure('settings.saveColors')
    .input(colorsSchema)
    .mutation(({ ctx, input }) => settings.saveColors(ctx.deps, signedIn(ctx), input)),
  navbarStyle: procedure('settings.navbarStyle').query(({ ctx }) => settings.navbarStyle(ctx.deps, ctx.user)),
  saveNavbarStyle: procedure('settings.saveNavbarStyle')
    .input(navbarStyleSchema)
    .mutation(({ ctx, input }) => settings.saveNavbarStyle(ctx.deps, signedIn(ctx), input)),
  splash: procedure('settings.splash').query(({ ctx }) => settings.splash(ctx.deps, signedIn(ctx))),
  dismissSplash: procedure('settings.dismissSplash')
    .input(dismissSplashInput)
    .mutation(({ ctx }) => settings.dismissSplash(ctx.deps, signedIn(ctx))),
});
