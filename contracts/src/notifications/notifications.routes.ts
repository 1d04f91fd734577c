import { defineArea } from '../area.ts';

export const notificationsRoutes = defineArea({
  procedures: {
    'notifications.list': 1,
    'notifications.unreadCount': 1,
    'notifications.markRead': 1,
    'notifications.settings': 1,
    'notifications.setSettings': 1,
    /** The Game Servers page's Follow toggle (server.down / server.up) and what the member follows. */
    'notifications.followed': 1,
    'notifications.follow': 1,
  },
  pages: {
    '/personal/notifications': { access: 1, label: 'Notifications' },
  },
});

/** Web Push: the site's VAPID public key and this signed-in device's subscription. */
export const pushRoutes = defineArea({
  procedures: {
    'push.vapidKey': 1,
    'push.subscribe': 1,
    'push.unsubscribe': 1,
  },
});
