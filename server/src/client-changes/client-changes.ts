import { sql } from 'kysely';
import { clientChangeMessages } from '@site/contracts';
import { AppError } from '../errors.ts';
import type { Database, Executor } from '../db/database.ts';

/** How long an applied id is remembered: far longer than a phone stays offline with its queue. */
export const CLIENT_CHANGE_KEEP_DAYS = 30;

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
