import { addTodoInput, updateTodoInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as todo from './todo.service.ts';

export const todoRouter = router({
  list: procedure('todo.list').query(({ ctx }) => todo.list(ctx.deps, ctx.user)),
  add: procedure('todo.add')
    .input(addTodoInput)
    .mutation(({ ctx, input }) => todo.add(ctx.deps, ctx.user, input)),
  update: procedure('todo.update')
    .input(updateTodoInput)
    .mutation(({ ctx, input }) => todo.update(ctx.deps, ctx.user, input)),
});
