/**
 * What another area may use of the notifications: the events themselves and who may receive one now
 * (the webhooks area checks its members' rights again at each delivery with the same rules).
 */
export { recipientsOf } from './notifications.recipients.ts';
export type { NotificationEventRecord } from './notifications.tables.ts';
