import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const tables: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('trade_players')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('my_island', 'text', (c) => c.notNull())
      .addColumn('fresh', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('trade_resources')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('resource', 'text', (c) => c.notNull())
      .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount >= 0`))
      .addPrimaryKeyConstraint('trade_resources_pk', ['user_id', 'resource'])
      .execute();
    await db.schema
      .createTable('trade_prices')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('island', 'text', (c) => c.notNull())
      .addColumn('item', 'text', (c) => c.notNull())
      .addColumn('pressure', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('trade_prices_pk', ['user_id', 'island', 'item'])
      .execute();
    await db.schema
      .createTable('trade_techs')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('tech', 'text', (c) => c.notNull())
      .addColumn('bought_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('trade_techs_pk', ['user_id', 'tech'])
      .execute();
    await db.schema
      .createTable('trade_offers')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('give_resource', 'text', (c) => c.notNull())
      .addColumn('give_amount', 'integer', (c) => c.notNull().check(sql`give_amount > 0`))
      .addColumn('want_resource', 'text', (c) => c.notNull())
      .addColumn('want_amount', 'integer', (c) => c.notNull().check(sql`want_amount > 0`))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status in ('open', 'accepted', 'withdrawn')`))
      .addColumn('buyer_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('closed_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('trade_offers_open').on('trade_offers').columns(['status', 'id']).execute();
    await db.schema.createIndex('trade_offers_seller').on('trade_offers').column('seller_id').execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['trade_offers', 'trade_techs', 'trade_prices', 'trade_resources', 'trade_players']) {
      await db.schema.dropTable(table).execute();
    }
  },
};

export const tradeGameMigrations = { '20261123_trade_game_tables': tables };
