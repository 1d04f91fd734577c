import { addWindowsKeyInput, updateWindowsKeyInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as windowsKeys from './windows-keys.service.ts';

export const windowsKeysRouter = router({
  list: procedure('windowsKeys.list').query(({ ctx }) => windowsKeys.list(ctx.deps)),
  add: procedure('windowsKeys.add')
    .input(addWindowsKeyInput)
    .mutation(({ ctx, input }) => windowsKeys.add(ctx.deps, ctx.user, input)),
  update: procedure('windowsKeys.update')
    .input(updateWindowsKeyInput)
    .mutation(({ ctx, input }) => windowsKeys.update(ctx.deps, ctx.user, input)),
});
