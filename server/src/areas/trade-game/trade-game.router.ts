import { islandInput, offerIdInput, offerInput, techInput, tradeInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as game from './trade-game.service.ts';

export const tradeGameRouter = router({
  islands: procedure('tradeGame.islands').query(({ ctx }) => game.islands(ctx.deps, ctx.user)),
  resources: procedure('tradeGame.resources').mutation(({ ctx }) => game.resources(ctx.deps, ctx.user)),
  island: procedure('tradeGame.island')
    .input(islandInput)
    .query(({ ctx, input }) => game.island(ctx.deps, ctx.user, input)),
  trade: procedure('tradeGame.trade')
    .input(tradeInput)
    .mutation(({ ctx, input }) => game.trade(ctx.deps, ctx.user, input)),
  techs: procedure('tradeGame.techs').query(({ ctx }) => game.techs(ctx.deps, ctx.user)),
  buyTech: procedure('tradeGame.buyTech')
    .input(techInput)
    .mutation(({ ctx, input }) => game.buyTech(ctx.deps, ctx.user, input)),
  offers: procedure('tradeGame.offers').query(({ ctx }) => game.offers(ctx.deps, ctx.user)),
  makeOffer: procedure('tradeGame.makeOffer')
    .input(offerInput)
    .mutation(({ ctx, input }) => game.makeOffer(ctx.deps, ctx.user, input)),
  acceptOffer: procedure('tradeGame.acceptOffer')
    .input(offerIdInput)
    .mutation(({ ctx, input }) => game.acceptOffer(ctx.deps, ctx.user, input)),
  withdrawOffer: procedure('tradeGame.withdrawOffer')
    .input(offerIdInput)
    .mutation(({ ctx, input }) => game.withdrawOffer(ctx.deps, ctx.user, input)),
  reset: procedure('tradeGame.reset').mutation(({ ctx }) => game.reset(ctx.deps, ctx.user)),
});
