import { importInput, importUrlInput, listInput, recipeIdInput, recipeInput, recipeSettingsSchema, updateRecipeInput } from '@site/contracts';
import { userActor } from '../../identity/session-user.ts';
import { procedure, router } from '../../trpc/procedures.ts';
import { forgetImages } from './recipes.http.ts';
import { importJsonLd, importUrl } from './recipes.import.ts';
import * as recipes from './recipes.service.ts';

export const recipesRouter = router({
  list: procedure('recipes.list')
    .input(listInput)
    .query(({ ctx, input }) => recipes.list(ctx.deps, input?.search)),
  get: procedure('recipes.get')
    .input(recipeIdInput)
    .query(({ ctx, input }) => recipes.get(ctx.deps, input.recipeId)),
  units: procedure('recipes.units').query(({ ctx }) => recipes.units(ctx.deps)),
  settings: procedure('recipes.settings').query(({ ctx }) => recipes.settings(ctx.deps, ctx.user)),
  saveSettings: procedure('recipes.saveSettings')
    .input(recipeSettingsSchema)
    .mutation(({ ctx, input }) => recipes.saveSettings(ctx.deps, ctx.user, input)),
  create: procedure('recipes.create')
    .input(recipeInput)
    .mutation(({ ctx, input }) => recipes.create(ctx.deps, userActor(ctx.user), input)),
  update: procedure('recipes.update')
    .input(updateRecipeInput)
    .mutation(({ ctx, input }) => recipes.update(ctx.deps, input.recipeId, input.recipe, forgetImages(ctx.deps))),
  delete: procedure('recipes.delete')
    .input(recipeIdInput)
    .mutation(({ ctx, input }) => recipes.remove(ctx.deps, input.recipeId, forgetImages(ctx.deps))),
  importJsonLd: procedure('recipes.importJsonLd')
    .input(importInput)
    .mutation(({ ctx, input }) => importJsonLd(ctx.deps, userActor(ctx.user), input.json)),
  importUrl: procedure('recipes.importUrl')
    .input(importUrlInput)
    .mutation(({ ctx, input }) => importUrl(ctx.deps, userActor(ctx.user), input.url, {}, { copy: input.copy ?? false })),
  exportJsonLd: procedure('recipes.exportJsonLd')
    .input(recipeIdInput)
    .query(({ ctx, input }) => recipes.exportJsonLd(ctx.deps, input.recipeId)),
});
