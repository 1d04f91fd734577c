import { followServerInput, listNotificationsInput, markReadInput, notificationSettings, pushSubscribeInput, pushUnsubscribeInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as notifications from './notifications.service.ts';
import * as push from './push.service.ts';

export const notificationsRouter = router({
  list: procedure('notifications.list')
    .input(listNotificationsInput)
    .query(({ ctx, input }) => notifications.list(ctx.deps, ctx.user, input?.cursor)),
  unreadCount: procedure('notifications.unreadCount').query(({ ctx }) => notifications.unreadCount(ctx.deps, ctx.user)),
  markRead: procedure('notifications.markRead')
    .input(markReadInput)
    .mutation(({ ctx, input }) => notifications.markRead(ctx.deps, ctx.user, input)),
  settings: procedure('notifications.settings').query(({ ctx }) => notifications.settings(ctx.deps, ctx.user)),
  setSettings: procedure('notifications.setSettings')
    .input(notificationSettings)
    .mutation(({ ctx, input }) => notifications.setSettings(ctx.deps, ctx.user, input)),
  followed: procedure('notifications.followed').query(({ ctx }) => notifications.followed(ctx.deps, ctx.user)),
  follow: procedure('notifications.follow')
    .input(followServerInput)
    .mutation(({ ctx, input }) => notifications.follow(ctx.deps, ctx.user, input)),
});

export const pushRouter = router({
  vapidKey: procedure('push.vapidKey').query(({ ctx }) => push.vapidKey(ctx.deps)),
  subscribe: procedure('push.subscribe')
    .input(pushSubscribeInput)
    .mutation(({ ctx, input }) => push.subscribe(ctx.deps, ctx.user, ctx.sessionHash, input)),
  unsubscribe: procedure('push.unsubscribe')
    .input(pushUnsubscribeInput)
    .mutation(({ ctx, input }) => push.unsubscribe(ctx.deps, ctx.user, input.endpoint)),
});
