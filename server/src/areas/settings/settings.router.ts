import { colorsSchema, dismissSplashInput, navbarStyleSchema } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as settings from './settings.service.ts';

export const settingsRouter = router({
  colors: procedure('settings.colors').query(({ ctx }) => settings.colors(ctx.deps, ctx.user)),
  saveColors: procedure('settings.saveColors')
    .input(colorsSchema)
    .mutation(({ ctx, input }) => settings.saveColors(ctx.deps, ctx.user, input)),
  navbarStyle: procedure('settings.navbarStyle').query(({ ctx }) => settings.navbarStyle(ctx.deps, ctx.user)),
  saveNavbarStyle: procedure('settings.saveNavbarStyle')
    .input(navbarStyleSchema)
    .mutation(({ ctx, input }) => settings.saveNavbarStyle(ctx.deps, ctx.user, input)),
  splash: procedure('settings.splash').query(({ ctx }) => settings.splash(ctx.deps, ctx.user)),
  dismissSplash: procedure('settings.dismissSplash')
    .input(dismissSplashInput)
    .mutation(({ ctx }) => settings.dismissSplash(ctx.deps, ctx.user)),
});
