import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { isTimeZone } from '../time-zone.ts';
import { gameServerMessages } from '../game-servers/game-servers.schemas.ts';
import { NOTIFICATION_KIND_LIST, notificationMessages as m, type NotificationKind } from './notifications.rules.ts';

export * from './notifications.rules.ts';

export const notificationKind = z.enum(NOTIFICATION_KIND_LIST as [NotificationKind, ...NotificationKind[]], { error: m.badKind });

export const notificationItem = z.object({
  id: z.number(),
  kind: notificationKind,
  title: z.string(),
  body: z.string(),
  url: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
  /** The thing it is about was handled (by anyone): no longer new, said as "done". */
  done: z.boolean(),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export type NotificationPage = { items: NotificationItem[]; nextCursor: number | null };

export const listNotificationsInput = z.object({ cursor: rowId(m.badIds).optional() }).optional();

export const markReadInput = z.union([
  z.object({ ids: z.array(rowId(m.badIds)).min(1).max(500) }),
  z.object({ all: z.literal(true) }),
]);
export type MarkReadInput = z.infer<typeof markReadInput>;

const timeOfDay = z.string({ error: m.badTime }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: m.badTime });

/** An IANA time zone the server's Intl knows ('Europe/Amsterdam'); the browser gives it. */
export const timeZone = z
  .string({ error: m.badTimeZone })
  .max(64, { error: m.badTimeZone })
  .refine(isTimeZone, { error: m.badTimeZone });

export const notificationSettings = z
  .object({
    muted: z.array(notificationKind).max(NOTIFICATION_KIND_LIST.length * 2),
    quietFrom: timeOfDay.nullable().optional(),
    quietTo: timeOfDay.nullable().optional(),
    /** The member's own zone, chosen on purpose in the settings' select: the only way to change it. */
    timeZone: timeZone.optional(),
    /** The zone of the device saving: becomes the member's only when they have none yet (the first save). */
    deviceTimeZone: timeZone.optional(),
  })
  .refine((s) => (s.quietFrom == null) === (s.quietTo == null), { error: m.quietBoth, path: ['quietTo'] });
export type NotificationSettingsInput = z.infer<typeof notificationSettings>;
/** timeZone: the member's own (null until their first save; the site's zone serves meanwhile). */
export type NotificationSettings = { muted: NotificationKind[]; quietFrom: string | null; quietTo: string | null; timeZone: string | null };

/** A browser's PushSubscription as `toJSON()` gives it; the keys are base64url. */
const base64url = (min: number, max: number) =>
  z.string({ error: m.badKey }).min(min, { error: m.badKey }).max(max, { error: m.badKey }).regex(/^[A-Za-z0-9_-]+=*$/, { error: m.badKey });

export const pushEndpoint = z.string({ error: m.badEndpoint }).min(9, { error: m.badEndpoint }).max(2048, { error: m.badEndpoint });

export const pushSubscribeInput = z.object({
  endpoint: pushEndpoint,
  keys: z.object({ p256dh: base64url(80, 100), auth: base64url(16, 32) }),
});
export type PushSubscribeInput = z.infer<typeof pushSubscribeInput>;

export const pushUnsubscribeInput = z.object({ endpoint: pushEndpoint });

export const followServerInput = z.object({ id: rowId(gameServerMessages.badId), follow: z.boolean() });
