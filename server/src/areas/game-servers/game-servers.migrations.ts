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

export const gameServersMigrations = { '20261123_game_servers_servers': createServers };
