import type { ColumnType, Generated, Selectable } from 'kysely';

/** A member's webhook: where to send which kinds of event, and the key its messages are signed with. */
export interface WebhooksTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  /** JSON array of the notification kinds it carries. */
  events: string;
  /** The signing key, base64 (the member got it once as `whsec_` + this). */
  secret: string;
  created_at: ColumnType<Date, never, never>;
  /** Since when its attempts fail (none succeeded since); null while they succeed. */
  failing_since: Date | null;
  /** When it was paused (a day of failures, or its member): nothing is sent until it is resumed. */
  paused_at: Date | null;
}

/** The events the webhooks' fan-out has taken (one instance each): an event makes its deliveries once. */
export interface WebhookEventsSeenTable {
  event_id: number;
  seen_at: ColumnType<Date, never, never>;
}

/**
 * One message for one webhook (the outbox): made with the event's fan-out, sent until a 2xx answers,
 * with the same message id each try; claimed with a lease, so two instances never send it at once.
 */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  event_id: number;
  /** The Standard Webhooks `webhook-id`: the same at every try. */
  message_id: string;
  type: string;
  /** The JSON body `{ type, timestamp, data }`, fixed at the fan-out: every try sends the same bytes. */
  payload: string;
  attempts: Generated<number>;
  next_at: Generated<Date>;
  lease_until: Date | null;
  delivered_at: Date | null;
  /** Why it was given up; null while it may still go. */
  failed: string | null;
  created_at: ColumnType<Date, never, never>;
}

/** The log of attempts, the last WEBHOOK_LOG_SIZE per webhook (the Account page's deliveries). */
export interface WebhookAttemptsTable {
  id: Generated<number>;
  webhook_id: number;
  message_id: string;
  type: string;
  attempt: number;
  /** The HTTP status, 0 when none came. */
  status: number;
  problem: string | null;
  at: ColumnType<Date, never, never>;
  duration_ms: number;
}

export interface WebhooksTables {
  webhooks: WebhooksTable;
  webhook_events_seen: WebhookEventsSeenTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

export type WebhookRecord = Selectable<WebhooksTable>;
