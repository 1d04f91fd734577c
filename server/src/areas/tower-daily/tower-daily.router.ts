import { dailyDayInput, dailyLeaderboardInput, submitDailyInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as towerDaily from './tower-daily.service.ts';

export const towerDailyRouter = router({
  today: procedure('towerDaily.today').query(({ ctx }) => towerDaily.today(ctx.deps)),
  submit: procedure('towerDaily.submit')
    .input(submitDailyInput)
    .mutation(({ ctx, input }) => towerDaily.submit(ctx.deps, ctx.user, input)),
  day: procedure('towerDaily.day')
    .input(dailyDayInput)
    .query(({ ctx, input }) => towerDaily.day(ctx.deps, input)),
  leaderboard: procedure('towerDaily.leaderboard')
    .input(dailyLeaderboardInput)
    .query(({ ctx, input }) => towerDaily.leaderboard(ctx.deps, input)),
});
