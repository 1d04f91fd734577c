import { planApplyTemplateInput, planClearInput, planCopyWeekInput, planSaveMealsInput, planSaveTemplateInput, planSetInput, planShopInput, planWeekInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as plan from './plan.service.ts';

export const planRouter = router({
  week: procedure('plan.week')
    .input(planWeekInput)
    .query(({ ctx, input }) => plan.week(ctx.deps, input.start)),
  set: procedure('plan.set')
    .input(planSetInput)
    .mutation(({ ctx, input }) => plan.set(ctx.deps, input)),
  clear: procedure('plan.clear')
    .input(planClearInput)
    .mutation(({ ctx, input }) => plan.clear(ctx.deps, input)),
  copyLastWeek: procedure('plan.copyLastWeek')
    .input(planCopyWeekInput)
    .mutation(({ ctx, input }) => plan.copyLastWeek(ctx.deps, input.start)),
  templates: procedure('plan.templates').query(({ ctx }) => plan.templates(ctx.deps)),
  saveTemplate: procedure('plan.saveTemplate')
    .input(planSaveTemplateInput)
    .mutation(({ ctx, input }) => plan.saveTemplate(ctx.deps, ctx.user, input)),
  applyTemplate: procedure('plan.applyTemplate')
    .input(planApplyTemplateInput)
    .mutation(({ ctx, input }) => plan.applyTemplate(ctx.deps, input)),
  shop: procedure('plan.shop')
    .input(planShopInput)
    .mutation(({ ctx, input }) => plan.shop(ctx.deps, ctx.user, input.start)),
  members: procedure('plan.members').query(({ ctx }) => plan.members(ctx.deps)),
  recipes: procedure('plan.recipes').query(({ ctx }) => plan.recipes(ctx.deps)),
  saveMeals: procedure('plan.saveMeals')
    .input(planSaveMealsInput)
    .mutation(({ ctx, input }) => plan.saveMeals(ctx.deps, input)),
});
