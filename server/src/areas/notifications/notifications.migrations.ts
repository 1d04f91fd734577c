import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const tables: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('notification_events')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('subject_id', 'integer')
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('fanned_out_at', 'timestamptz')
      .execute();
    await sql`create index notification_events_waiting on notification_events (id) where fanned_out_at is null`.execute(db);

    await db.schema
      .createTable('notification_inbox')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('event_id', 'integer', (c) => c.notNull().references('notification_events.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('read_at', 'timestamptz')
      .addUniqueConstraint('notification_inbox_event_user', ['event_id', 'user_id'])
      .execute();
    await db.schema.createIndex('notification_inbox_user').on('notification_inbox').columns(['user_id', 'id']).execute();
    await sql`create index notification_inbox_unread on notification_inbox (user_id) where read_at is null`.execute(db);

    await db.schema
      .createTable('notification_settings')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('muted', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('quiet_from', 'text')
      .addColumn('quiet_to', 'text')
      .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
      .addColumn('digest_on', 'text')
      .execute();

    await db.schema
      .createTable('push_subscriptions')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // The device's session: ending it ends the subscription, in the database itself.
      .addColumn('session_hash', 'text', (c) => c.notNull().references('sessions.token_hash').onDelete('cascade'))
      .addColumn('endpoint', 'text', (c) => c.notNull().unique())
      .addColumn('p256dh', 'text', (c) => c.notNull())
      .addColumn('auth', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute();
    await db.schema.createIndex('push_subscriptions_session').on('push_subscriptions').column('session_hash').execute();

    await db.schema
      .createTable('push_deliveries')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('event_id', 'integer', (c) => c.notNull().references('notification_events.id').onDelete('cascade'))
      .addColumn('subscription_id', 'integer', (c) => c.notNull().references('push_subscriptions.id').onDelete('cascade'))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('lease_until', 'timestamptz')
      .addColumn('delivered_at', 'timestamptz')
      .addColumn('failed', 'text')
      .addUniqueConstraint('push_deliveries_event_subscription', ['event_id', 'subscription_id'])
      .execute();
    await sql`create index push_deliveries_due on push_deliveries (next_at) where delivered_at is null and failed is null`.execute(db);
    await db.schema.createIndex('push_deliveries_subscription').on('push_deliveries').column('subscription_id').execute();

    await db.schema
      .createTable('push_vapid')
      .addColumn('id', 'smallint', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('private_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable('notification_follows')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('server_id', 'integer', (c) => c.notNull().references('game_servers.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('notification_follows_pk', ['user_id', 'server_id'])
      .execute();
    await db.schema.createIndex('notification_follows_server').on('notification_follows').column('server_id').execute();

    await db.schema
      .createTable('notification_server_watch')
      .addColumn('server_id', 'integer', (c) => c.primaryKey().references('game_servers.id').onDelete('cascade'))
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('announced', 'text')
      .execute();

    // The bell (live feed area `notifications`): a member's inbox changed, told to that member only.
    await sql`create trigger notification_inbox_live after insert or update or delete on notification_inbox
      for each row execute function site_notify_change('notifications', 'user_id')`.execute(db);
    await sql`create trigger notification_inbox_live_truncate after truncate on notification_inbox
      for each statement execute function site_notify_change('notifications')`.execute(db);
    // The delivery worker wakes at the commit of an event (or a delivery due now), on every instance.
    await sql`create function notification_wake() returns trigger language plpgsql as $$
      begin
        perform pg_notify('site_push', '');
        return null;
      end $$`.execute(db);
    await sql`create trigger notification_events_wake after insert on notification_events
      for each statement execute function notification_wake()`.execute(db);
    // account.waiting: written with the account itself, in the transaction that creates it, whichever
    // path creates it (sign-up, /api, the command line), without touching the accounts' code.
    await sql`create function notification_account_waiting() returns trigger language plpgsql as $$
      begin
        insert into notification_events (kind, subject_id, title, body, url)
          values ('account.waiting', new.id, 'An account waits for approval', new.name || ' signed up and waits for an admin.', '/admin');
        return null;
      end $$`.execute(db);
    await sql`create trigger users_account_waiting after insert on users for each row when (new.level = 0)
      execute function notification_account_waiting()`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop trigger if exists users_account_waiting on users`.execute(db);
    await sql`drop function if exists notification_account_waiting()`.execute(db);
    await sql`drop trigger if exists notification_events_wake on notification_events`.execute(db);
    await sql`drop function if exists notification_wake()`.execute(db);
    for (const table of [
      'notification_server_watch',
      'notification_follows',
      'push_vapid',
      'push_deliveries',
      'push_subscriptions',
      'notification_settings',
      'notification_inbox',
      'notification_events',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};

/**
 * The day each member last had each daily planning notification (chore.due, dinner.tonight): the row
 * is claimed before the event is made, so it is made once per (member, day) across restarts and
 * instances, whether or not the member ever saved notification settings.
 */
const days: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('notification_days')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_days_pk', ['user_id', 'kind'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('notification_days').execute();
  },
};

/**
 * Notifications about a thing that has been handled stop being new, for everyone: `done_at` on the
 * event, and its unread inbox rows marked read (the bells count again at once: the inbox's live
 * trigger). Written by triggers on the things themselves, so every way of handling one (approving,
 * refusing, deleting; the admin page, /api, the command line) counts, in the transaction that
 * handles it. `picture.waiting` is one event for an uploader's pictures waiting (recordEvent joins
 * them, notifications.events.ts): it is done when none of them waits any more, and until then says
 * how many still do.
 */
const done: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('notification_events').addColumn('done_at', 'timestamptz').execute();
    await sql`create function notification_done_events(done_ids integer[]) returns void language plpgsql as $$
      begin
        update notification_inbox set read_at = now() where read_at is null and event_id = any(done_ids);
      end $$`.execute(db);
    await sql`create function notification_account_done() returns trigger language plpgsql as $$
      declare
        done_ids integer[];
      begin
        if old.level <> 0 or (tg_op = 'UPDATE' and new.level = 0) then
          return null;
        end if;
        with done as (
          update notification_events set done_at = now()
            where kind = 'account.waiting' and subject_id = old.id and done_at is null returning id)
        select coalesce(array_agg(id), '{}') into done_ids from done;
        perform notification_done_events(done_ids);
        return null;
      end $$`.execute(db);
    await sql`create trigger users_account_done after update of level or delete on users for each row
      execute function notification_account_done()`.execute(db);
    await sql`create function notification_pictures_done() returns trigger language plpgsql as $$
      declare
        waiting integer;
        done_ids integer[];
      begin
        if old.status <> 'pending' or (tg_op = 'UPDATE' and new.status = 'pending') then
          return null;
        end if;
        select count(*) into waiting from pictures where status = 'pending' and uploaded_by is not distinct from old.uploaded_by;
        if waiting > 0 then
          update notification_events
            set title = case when waiting = 1 then 'A picture waits for approval' else waiting || ' pictures wait for approval' end
            where kind = 'picture.waiting' and done_at is null and actor_id is not distinct from old.uploaded_by;
          return null;
        end if;
        with done as (
          update notification_events set done_at = now()
            where kind = 'picture.waiting' and done_at is null and actor_id is not distinct from old.uploaded_by returning id)
        select coalesce(array_agg(id), '{}') into done_ids from done;
        perform notification_done_events(done_ids);
        return null;
      end $$`.execute(db);
    await sql`create trigger pictures_notification_done after update of status or delete on pictures for each row
      execute function notification_pictures_done()`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop trigger if exists pictures_notification_done on pictures`.execute(db);
    await sql`drop function if exists notification_pictures_done()`.execute(db);
    await sql`drop trigger if exists users_account_done on users`.execute(db);
    await sql`drop function if exists notification_account_done()`.execute(db);
    await sql`drop function if exists notification_done_events(integer[])`.execute(db);
    await db.schema.alterTable('notification_events').dropColumn('done_at').execute();
  },
};

/**
 * Issue 52: hearts and comments from one member to another are told once in a while and summed:
 * `part` says which a picture.social event is, `joined_to` the summed event it was added to.
 */
const socialSum: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('notification_events')
      .addColumn('part', 'text')
      .addColumn('joined_to', 'integer', (c) => c.references('notification_events.id').onDelete('cascade'))
      .execute();
    await sql`update notification_events set part = case when body = '' then 'heart' else 'comment' end where kind = 'picture.social'`.execute(db);
    await db.schema.createIndex('notification_events_social').on('notification_events').columns(['actor_id', 'kind', 'created_at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('notification_events_social').execute();
    await db.schema.alterTable('notification_events').dropColumn('joined_to').dropColumn('part').execute();
  },
};

export const notificationsMigrations = {
  '20261127_notifications_tables': tables,
  '20261127_notifications_plan_days': days,
  '20261204_notifications_done': done,
  '20261206_notifications_social_sum': socialSum,
};
