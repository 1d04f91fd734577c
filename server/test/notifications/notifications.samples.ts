import type { notificationsRoutes, pushRoutes } from '@site/contracts';
import type { AreaSamples } from '../area-tables.ts';

/** A browser's keys as PushSubscription.toJSON() gives them (a P-256 point and 16 random bytes, base64url). */
export const sampleKeys = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};

/** A valid input per procedure: the permission matrix calls each at every level. */
export const notificationsSamples = {
  'notifications.list': {},
  'notifications.unreadCount': undefined,
  'notifications.markRead': { all: true },
  'notifications.settings': undefined,
  'notifications.setSettings': { muted: ['house.added'], quietFrom: '22:00', quietTo: '07:00', timeZone: 'Europe/Amsterdam' },
  'notifications.followed': undefined,
  'notifications.follow': { id: 1, follow: true },
} satisfies AreaSamples<typeof notificationsRoutes>;

export const pushSamples = {
  'push.vapidKey': undefined,
  // TEST-NET-2: refused by the address guard without any network, past the permission gate.
  'push.subscribe': { endpoint: 'https://198.51.100.7/push/sample', keys: sampleKeys },
  'push.unsubscribe': { endpoint: 'https://198.51.100.7/push/sample' },
} satisfies AreaSamples<typeof pushRoutes>;
