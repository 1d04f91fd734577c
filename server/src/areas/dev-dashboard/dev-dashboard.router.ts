import { runIdInput, runInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as dev from './dev-dashboard.service.ts';

/** One procedure per button, each with its own /api path; `confirm` carries the typed phrase. */
export const devDashboardRouter = router({
  status: procedure('devDashboard.status').query(({ ctx }) => dev.status(ctx.deps)),
  runs: procedure('devDashboard.runs').query(({ ctx }) => dev.runs(ctx.deps)),
  run: procedure('devDashboard.run')
    .input(runIdInput)
    .query(({ ctx, input }) => dev.run(ctx.deps, input.id)),
  devPull: procedure('devDashboard.devPull')
    .input(runInput)
    .mutation(({ ctx, input }) => dev.start(ctx.deps, ctx.user, 'dev-pull', input?.confirm)),
  prodPull: procedure('devDashboard.prodPull')
    .input(runInput)
    .mutation(({ ctx, input }) => dev.start(ctx.deps, ctx.user, 'prod-pull', input?.confirm)),
  devLaunch: procedure('devDashboard.devLaunch')
    .input(runInput)
    .mutation(({ ctx, input }) => dev.start(ctx.deps, ctx.user, 'dev-launch', input?.confirm)),
  reboot: procedure('devDashboard.reboot')
    .input(runInput)
    .mutation(({ ctx, input }) => dev.start(ctx.deps, ctx.user, 'reboot', input?.confirm)),
});
