import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

const createServers: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('game_servers')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('port', 'integer', (c) => c.notNull().unique().check(sql`port between 1 and 65535`))
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('game_servers').execute();
  },
};

/**
 * The game each server runs, the last answer of its query (one row per server, shared by every
 * instance: claimed_at is the claim that lets one instance query per 30 s) and 24 h of players.
 */
const addQueries: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('game_servers')
      .addColumn('game', 'text', (c) => c.notNull().defaultTo('tcp'))
      .execute();
    await db.schema
      .createTable('game_server_status')
      .addColumn('server_id', 'integer', (c) => c.primaryKey().references('game_servers.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('Unknown'))
      .addColumn('players', 'integer')
      .addColumn('max_players', 'integer')
      .addColumn('player_names', 'text', (c) => c.notNull().defaultTo('[]')) // a JSON array of names
      .addColumn('map', 'text')
      .addColumn('version', 'text')
      .addColumn('ping_ms', 'integer')
      .addColumn('online_since', 'timestamptz')
      .addColumn('queried_at', 'timestamptz')
      .addColumn('claimed_at', 'timestamptz')
      .execute();
    await db.schema
      .createTable('game_server_history')
      .addColumn('server_id', 'integer', (c) => c.notNull().references('game_servers.id').onDelete('cascade'))
      .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('players', 'integer', (c) => c.notNull())
      .execute();
    await sql`insert into game_server_status (server_id) select id from game_servers`.execute(db);
    await db.schema.createIndex('game_server_history_server_at').on('game_server_history').columns(['server_id', 'at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('game_server_history').execute();
    await db.schema.dropTable('game_server_status').execute();
    await db.schema.alterTable('game_servers').dropColumn('game').execute();
  },
};

export const gameServersMigrations = {
  '20261123_game_servers_servers': createServers,
  '20261124_game_servers_queries': addQueries,
};
