import { createWebhookInput, updateWebhookInput, webhookIdInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as webhooks from './webhooks.service.ts';

export const webhooksRouter = router({
  list: procedure('webhooks.list').query(({ ctx }) => webhooks.list(ctx.deps, ctx.user)),
  create: procedure('webhooks.create')
    .input(createWebhookInput)
    .mutation(({ ctx, input }) => webhooks.create(ctx.deps, ctx.user, input)),
  update: procedure('webhooks.update')
    .input(updateWebhookInput)
    .mutation(({ ctx, input }) => webhooks.update(ctx.deps, ctx.user, input)),
  delete: procedure('webhooks.delete')
    .input(webhookIdInput)
    .mutation(({ ctx, input }) => webhooks.remove(ctx.deps, ctx.user, input.id)),
  deliveries: procedure('webhooks.deliveries')
    .input(webhookIdInput)
    .query(({ ctx, input }) => webhooks.deliveries(ctx.deps, ctx.user, input.id)),
  test: procedure('webhooks.test')
    .input(webhookIdInput)
    .mutation(({ ctx, input }) => webhooks.test(ctx.deps, ctx.user, input.id)),
});
