import { addGameServerInput, removeGameServerInput, updateGameServerInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as gameServers from './game-servers.service.ts';

export const gameServersRouter = router({
  list: procedure('gameServers.list').query(({ ctx }) => gameServers.list(ctx.deps)),
  add: procedure('gameServers.add')
    .input(addGameServerInput)
    .mutation(({ ctx, input }) => gameServers.add(ctx.deps, input)),
  update: procedure('gameServers.update')
    .input(updateGameServerInput)
    .mutation(({ ctx, input }) => gameServers.update(ctx.deps, input)),
  remove: procedure('gameServers.remove')
    .input(removeGameServerInput)
    .mutation(({ ctx, input }) => gameServers.remove(ctx.deps, input)),
});
