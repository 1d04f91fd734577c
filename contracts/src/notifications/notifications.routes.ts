import { defineArea } from '../area.ts';
import { notificationsPages } from './notifications.pages.ts';

export const notificationsRoutes = /* @__PURE__ */ defineArea({
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
  pages: notificationsPages,
});

/** Web Push: the site's VAPID public key and this signed-in device's subscription. */
export const pushRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'push.vapidKey': 1,
    'push.subscribe': 1,
    'push.unsubscribe': 1,
  },
});
