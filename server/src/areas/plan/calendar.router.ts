import { calendarSettingsInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as calendar from './calendar.service.ts';

export const calendarRouter = router({
  feed: procedure('calendar.feed').query(({ ctx }) => calendar.feed(ctx.deps, ctx.user)),
  reset: procedure('calendar.reset').mutation(({ ctx }) => calendar.reset(ctx.deps, ctx.user, ctx.origin)),
  settings: procedure('calendar.settings')
    .input(calendarSettingsInput)
    .mutation(({ ctx, input }) => calendar.saveSettings(ctx.deps, ctx.user, input.everyone)),
});
