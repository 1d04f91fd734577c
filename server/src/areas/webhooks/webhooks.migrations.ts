import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const tables: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('failing_since', 'timestamptz')
      .addColumn('paused_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('webhooks_user').on('webhooks').column('user_id').execute();

    await db.schema
      .createTable('webhook_events_seen')
      .addColumn('event_id', 'integer', (c) => c.primaryKey())
      .addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('event_id', 'integer', (c) => c.notNull())
      .addColumn('message_id', 'text', (c) => c.notNull().unique())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('lease_until', 'timestamptz')
      .addColumn('delivered_at', 'timestamptz')
      .addColumn('failed', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('webhook_deliveries_hook_event', ['webhook_id', 'event_id'])
      .execute();
    await sql`create index webhook_deliveries_due on webhook_deliveries (next_at) where delivered_at is null and failed is null`.execute(db);

    await db.schema
      .createTable('webhook_attempts')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('problem', 'text')
      .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_attempts_hook').on('webhook_attempts').columns(['webhook_id', 'id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('webhook_attempts').execute();
    await db.schema.dropTable('webhook_deliveries').execute();
    await db.schema.dropTable('webhook_events_seen').execute();
    await db.schema.dropTable('webhooks').execute();
  },
};

export const webhooksMigrations = { '20261129_webhooks_tables': tables };
