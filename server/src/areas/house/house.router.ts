import { addHouseInput, addIngredientsInput, completeHouseInput, undoHouseInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as house from './house.service.ts';

export const houseRouter = router({
  list: procedure('house.list').query(({ ctx }) => house.list(ctx.deps)),
  add: procedure('house.add')
    .input(addHouseInput)
    .mutation(({ ctx, input }) => house.add(ctx.deps, ctx.user, input)),
  complete: procedure('house.complete')
    .input(completeHouseInput)
    .mutation(({ ctx, input }) => house.complete(ctx.deps, ctx.user, input)),
  undo: procedure('house.undo')
    .input(undoHouseInput)
    .mutation(({ ctx, input }) => house.undo(ctx.deps, ctx.user, input)),
  addIngredients: procedure('house.addIngredients')
    .input(addIngredientsInput)
    .mutation(({ ctx, input }) => house.addIngredients(ctx.deps, ctx.user, input)),
});
