import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * Something that happened that members may be told about, written in the transaction of the change
 * that caused it (notifications.events.ts). The worker decides who receives it when it sends it
 * (notifications.recipients.ts), then marks it fanned out.
 */
export interface NotificationEventsTable {
  id: Generated<number>;
  kind: string;
  /** Who caused it (not told about their own change); null for the site itself (a game server, the morning digest). */
  actor_id: number | null;
  /** The member it is for, for kinds told to one member ('member' kinds). */
  user_id: number | null;
  /** What it is about: a picture, a game server... (the kind says which); checked again at send time. */
  subject_id: number | null;
  title: string;
  body: string;
  url: string;
  created_at: ColumnType<Date, never, never>;
  /** When the worker turned it into inbox rows and deliveries; null while it waits. */
  fanned_out_at: Date | null;
  /** When the thing it is about was handled (an account or picture approved or refused): no longer new for anyone, never pushed after. */
  done_at: ColumnType<Date | null, never, never>;
  /** picture.social: 'heart' or 'comment' (the heart-again rule and the summed title count them); null for other kinds. */
  part: ColumnType<string | null, string | null | undefined, string | null>;
  /** The summed notification this one was added to (never fanned out on its own), or null. */
  joined_to: ColumnType<number | null, number | null | undefined, number | null>;
}

/** One member's copy of an event: the bell's count and the Notifications page. */
export interface NotificationInboxTable {
  id: Generated<number>;
  event_id: number;
  user_id: number;
  created_at: ColumnType<Date, never, never>;
  read_at: Date | null;
}

export interface NotificationSettingsTable {
  user_id: number;
  /** JSON array of muted kinds. */
  muted: string;
  quiet_from: string | null;
  quiet_to: string | null;
  time_zone: string;
  /** The member's local date of the last On this day digest (YYYY-MM-DD), so it is made once a day. */
  digest_on: string | null;
}

/**
 * A browser's push subscription, belonging to the signed-in session that made it: when the session
 * row goes (sign out, sign out everywhere else, a password change or reset, expiry), the database
 * deletes the subscription with it (ON DELETE CASCADE), whichever code path removed the session.
 */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  session_hash: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: ColumnType<Date, never, never>;
}

/** One (event, device) push: sent once, retried with backoff until the push service accepts it. */
export interface PushDeliveriesTable {
  id: Generated<number>;
  event_id: number;
  subscription_id: number;
  attempts: Generated<number>;
  next_at: Generated<Date>;
  /** A worker holds it until then (FOR UPDATE SKIP LOCKED claim); after, another may take it over. */
  lease_until: Date | null;
  delivered_at: Date | null;
  /** Why it was given up (the push service refused it for good); null while it may still go. */
  failed: string | null;
}

/** The site's VAPID key pair (one row), made on first use: shared by every instance, carried by backups. */
export interface PushVapidTable {
  id: number;
  public_key: string;
  private_key: string;
  created_at: ColumnType<Date, never, never>;
}

/** Members who follow a game server (server.down / server.up). */
export interface NotificationFollowsTable {
  user_id: number;
  server_id: number;
}

/** What the checks said of a followed game server lately: failures in a row, and what was last announced. */
export interface NotificationServerWatchTable {
  server_id: number;
  failures: number;
  /** 'up' or 'down': each change is announced once. */
  announced: string | null;
}

/** The member's local date (YYYY-MM-DD) of the last daily notification of a kind (chore.due, dinner.tonight). */
export interface NotificationDaysTable {
  user_id: number;
  kind: string;
  day: string;
}

export interface NotificationsTables {
  notification_events: NotificationEventsTable;
  notification_inbox: NotificationInboxTable;
  notification_settings: NotificationSettingsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_deliveries: PushDeliveriesTable;
  push_vapid: PushVapidTable;
  notification_follows: NotificationFollowsTable;
  notification_server_watch: NotificationServerWatchTable;
  notification_days: NotificationDaysTable;
}

export type NotificationEventRecord = Selectable<NotificationEventsTable>;
export type PushSubscriptionRecord = Selectable<PushSubscriptionsTable>;
