import { NOTIFICATION_KIND_LIST, type NotificationKind } from '../notifications/notifications.rules.ts';

/** The kinds a webhook may carry: every notification kind but the one that tells of a paused webhook. */
export const WEBHOOK_EVENT_KINDS: readonly NotificationKind[] = NOTIFICATION_KIND_LIST.filter((kind) => kind !== 'webhook.paused');

/** The type of the message `webhooks.test` sends. */
export const WEBHOOK_TEST_TYPE = 'webhook.test';

/** Webhooks one member may have. */
export const WEBHOOKS_PER_MEMBER = 20;

/** Attempts kept per webhook (the deliveries log). */
export const WEBHOOK_LOG_SIZE = 100;

/** A webhook's state on the Account page: sending, failing since a moment (still tried), or paused after a day of failures. */
export type WebhookStatus = 'active' | 'failing' | 'paused';

export const webhookMessages = {
  badId: 'Name the webhook by its id',
  badUrl: 'The webhook address is not a valid http(s) link',
  notHttp: 'Webhook addresses start with http:// or https://',
  hostNotAllowed: (host: string) =>
    `${host} is not a host webhooks may be sent to: the site's owner lists the allowed ones in WEBHOOK_ALLOWED_HOSTS`,
  noCredentials: 'A webhook address may not carry a user name or password',
  unknownHost: 'The webhook\'s host could not be found',
  privateHost: 'Webhook addresses on this network are not allowed',
  noEvents: 'Choose at least one kind of event',
  badKind: 'Unknown kind of event',
  kindNotYours: (label: string) => `Your level does not receive this kind of event: ${label}`,
  tooMany: `You have ${WEBHOOKS_PER_MEMBER} webhooks already: delete one first`,
  notFound: 'No such webhook',
} as const;
