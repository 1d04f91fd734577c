import { z } from 'zod';
import type { NotificationKind } from '../notifications/notifications.rules.ts';
import { rowId } from '../row-id.ts';
import { text } from '../text.ts';
import { WEBHOOK_EVENT_KINDS, webhookMessages as m } from './webhooks.rules.ts';

export * from './webhooks.rules.ts';

export const webhookEventKind = z.enum(WEBHOOK_EVENT_KINDS as [NotificationKind, ...NotificationKind[]], { error: m.badKind });

const webhookUrl = text({ label: 'Address', max: 2000, trim: true, min: 1 });
const events = z.array(webhookEventKind).min(1, { error: m.noEvents }).max(WEBHOOK_EVENT_KINDS.length);

export const createWebhookInput = z.object({ url: webhookUrl, events });
export const updateWebhookInput = z.object({
  id: rowId(m.badId),
  url: webhookUrl.optional(),
  events: events.optional(),
  /** true resumes a paused webhook (its failures forgotten); false pauses it. */
  active: z.boolean().optional(),
});
export const webhookIdInput = z.object({ id: rowId(m.badId) });
export type CreateWebhookInput = z.infer<typeof createWebhookInput>;
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

export const webhookRow = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(webhookEventKind),
  status: z.enum(['active', 'failing', 'paused']),
  createdAt: z.string(),
  /** When its last attempt was made, and what came of it. */
  lastAttempt: z.object({ at: z.string(), status: z.number(), ok: z.boolean() }).nullable(),
});
export type WebhookRow = z.infer<typeof webhookRow>;

/** `webhooks.create`'s answer: the signing secret (`whsec_` + base64 of the key) is shown this once. */
export type CreatedWebhook = WebhookRow & { secret: string };

/** One attempt to deliver a message: its status (0: no answer), time and how long it took. */
export const webhookAttempt = z.object({
  id: z.number(),
  messageId: z.string(),
  type: z.string(),
  /** The HTTP status answered, 0 when there was none (timeout, refused connection). */
  status: z.number(),
  ok: z.boolean(),
  /** Why it failed, when it did (no answer in 10 s, connection refused...). */
  problem: z.string().nullable(),
  at: z.string(),
  durationMs: z.number(),
  /** Its number among the message's attempts (1 for the first). */
  attempt: z.number(),
});
export type WebhookAttempt = z.infer<typeof webhookAttempt>;

/** What `webhooks.test` answers: its one attempt. */
export type WebhookTestResult = WebhookAttempt;
