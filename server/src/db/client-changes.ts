import { sql, type Generated, type Kysely, type Migration } from 'kysely';
import { clientChangeMessages } from '@site/contracts';
import { AppError } from '../errors.ts';
import type { Database, Executor } from './database.ts';

/**
 * Changes made in a browser carry an id the browser made (a UUID): an offline change waits in the
 * browser's queue and may be sent more than once (an answer lost on a bad network, two tabs). Each
 * applied id is kept here with the answer it got, per account, so a second sending answers the same and
 * changes nothing. Shared by the areas whose writes the queue sends (house, todo).
 */
export interface ClientChangesTable {
  user_id: number;
  client_id: string;
  /** The procedure it was sent to (`house.complete`): the same id for another change is refused. */
  procedure: string;
  /** The first answer, as JSON; null only inside the transaction that applies it. */
  result: unknown;
  created_at: Generated<Date>;
}

export interface ClientChangesTables {
  client_changes: ClientChangesTable;
}

/** How long an applied id is remembered: far longer than a phone stays offline with its queue. */
export const CLIENT_CHANGE_KEEP_DAYS = 30;

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */
const createClientChanges: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('client_changes')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('client_id', 'uuid', (c) => c.notNull())
      .addColumn('procedure', 'text', (c) => c.notNull())
      .addColumn('result', 'jsonb')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('client_changes_pkey', ['user_id', 'client_id'])
      .execute();
    await db.schema.createIndex('client_changes_user_created').on('client_changes').columns(['user_id', 'created_at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('client_changes').execute();
  },
};
/* eslint-enable @typescript-eslint/no-explicit-any */

export const clientChangesMigrations = { '20261124_sync_client_changes': createClientChanges };

/**
 * Runs one write in a transaction, exactly once per (account, client id): the id is claimed first
 * (a unique key, so a concurrent sending of the same id waits for the first to commit and then reads
 * its answer), the write runs, and its answer is stored with the claim. A write that throws rolls the
 * claim back with it, so a refused change may be sent again. Without a client id it is just the
 * transaction. Ids older than CLIENT_CHANGE_KEEP_DAYS of the same account are pruned as it goes.
 */
export function applyOnce<T>(db: Database, userId: number, procedure: string, clientId: string | undefined, run: (trx: Executor) => Promise<T>): Promise<T> {
  if (clientId === undefined) return db.transaction().execute(run);
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('client_changes')
      .values({ user_id: userId, client_id: clientId, procedure, result: null })
      .onConflict((oc) => oc.columns(['user_id', 'client_id']).doNothing())
      .returning('client_id')
      .executeTakeFirst();
    if (!claimed) {
      const done = await trx
        .selectFrom('client_changes')
        .select(['procedure', 'result'])
        .where('user_id', '=', userId)
        .where('client_id', '=', clientId)
        .executeTakeFirstOrThrow();
      if (done.procedure !== procedure) throw new AppError('CONFLICT', clientChangeMessages.reused);
      return done.result as T;
    }
    const result = await run(trx);
    await trx
      .updateTable('client_changes')
      .set({ result: sql`${JSON.stringify(result)}::jsonb` })
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .execute();
    await trx
      .deleteFrom('client_changes')
      .where('user_id', '=', userId)
      .where('created_at', '<', new Date(Date.now() - CLIENT_CHANGE_KEEP_DAYS * 24 * 3600_000))
      .execute();
    return result;
  });
}
