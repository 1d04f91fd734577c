import { defineServerArea } from '../area.ts';
import { notificationsMigrations } from './notifications.migrations.ts';
import { notificationsRouter, pushRouter } from './notifications.router.ts';
import { startNotificationsWorker } from './notifications.worker.ts';

/** The inbox, the settings and the delivery worker (events -> inbox rows and Web Push). */
export const notificationsArea = defineServerArea({ router: notificationsRouter, migrations: notificationsMigrations, worker: startNotificationsWorker });
/** This device's push subscription and the site's VAPID public key. */
export const pushArea = defineServerArea({ router: pushRouter });
