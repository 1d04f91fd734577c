import type { ProcedurePath } from '../permissions.ts';

/**
 * The kinds of notification, each with the words a member sees and the procedure whose row in the
 * permission table decides who may receive it (checked when it is sent, not only when it was made).
 * `to` says who among those: everyone the rule lets in but whoever caused it ('others'), the member
 * the event names ('member'), or the members who follow the thing it is about ('followers').
 * A new kind is one row here and one recipient rule in the server's notifications.recipients.ts.
 */
export const NOTIFICATION_KINDS = {
  'house.added': { label: 'Added to House To Do / To Get', audience: 'house.add', to: 'others' },
  'picture.waiting': { label: 'A picture waits for approval', audience: 'pictures.approve', to: 'others' },
  'picture.approved': { label: 'Your picture was approved', audience: 'pictures.get', to: 'member' },
  'picture.social': { label: 'A heart or a comment on your picture', audience: 'pictures.social', to: 'member' },
  'account.waiting': { label: 'An account waits for approval', audience: 'admin.waitingCount', to: 'others' },
  'server.down': { label: 'A game server you follow stopped answering', audience: 'gameServers.list', to: 'followers' },
  'server.up': { label: 'A game server you follow answers again', audience: 'gameServers.list', to: 'followers' },
  'ytdl.done': { label: 'Your download finished', audience: 'ytdl.progress', to: 'member' },
  onthisday: { label: 'On this day: pictures from earlier years (08:00)', audience: 'pictures.onThisDay', to: 'member' },
  'chore.due': { label: 'A chore is yours to do today (08:00)', audience: 'chores.list', to: 'member' },
  'dinner.tonight': { label: 'You cook dinner tonight (15:00)', audience: 'plan.week', to: 'member' },
  'webhook.paused': { label: 'A webhook of yours was paused after failing for a day', audience: 'webhooks.list', to: 'member' },
} as const satisfies Record<string, { label: string; audience: ProcedurePath; to: 'others' | 'member' | 'followers' }>;

export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

export const NOTIFICATION_KIND_LIST = Object.keys(NOTIFICATION_KINDS) as NotificationKind[];

/** Items per page of `notifications.list`. */
export const NOTIFICATIONS_PAGE = 30;

export const notificationMessages = {
  badKind: 'Unknown kind of notification',
  badTime: 'Times are written as HH:MM (22:00)',
  badTimeZone: 'Unknown time zone: choose one from the list (an IANA name such as Europe/Amsterdam)',
  quietBoth: 'Quiet hours need both a start and an end',
  badIds: 'Notification ids are whole numbers',
  badEndpoint: 'The push address is not a valid https link',
  notHttps: 'Push addresses must start with https://',
  unknownPushHost: 'The push service could not be found',
  privatePushHost: 'Push addresses on this network are not allowed',
  badKey: 'The browser sent push keys that are not valid',
  badP256dh: 'The browser sent a push key that is not a P-256 public key (65 bytes, a point on the curve)',
  badAuth: 'The browser sent a push secret that is not 16 bytes',
  endpointTaken: 'This push address belongs to another account: sign that account out on this browser first',
  noKeys: 'Notifications are starting up: try again in a moment',
  noSession: 'Push notifications belong to a signed-in browser: sign in on this device first',
} as const;

/** The Account page's words for the device's push settings. */
export const pushWords = {
  deviceToggle: 'Notifications on this device',
  refused:
    'This browser blocks notifications from this site. Allow them in the browser\u2019s site settings, then turn this on again.',
  unsupported: 'This browser cannot receive notifications.',
  iphone: 'On an iPhone or iPad, notifications arrive only in the installed app (iOS 16.4 or later): Share, Add to Home Screen, then open the site from there.',
  quietHours: 'Quiet hours',
  quietHoursHelp: 'Nothing is pushed between these times; the list of notifications still fills.',
} as const;
