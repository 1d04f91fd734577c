import { sql } from 'kysely';
import type { GameServerStatus } from '@site/contracts';
import type { Executor } from '../../db/database.ts';
import { recordEvent } from './notifications.events.ts';

/** Failed checks in a row before a server counts as down (one lost answer is not an outage). */
export const FAILURES_FOR_DOWN = 2;

/**
 * Called with the transaction that stores a game server's check: counts failed checks in a row and
 * records `server.down` at the second, `server.up` at the first answer after that; each change once.
 * A server never seen answering is not announced as stopped.
 */
export async function serverChecked(db: Executor, server: { id: number; description: string }, status: GameServerStatus): Promise<void> {
  if (status === 'Unknown') return;
  const up = status === 'Online';
  const row = await db
    .insertInto('notification_server_watch')
    .values({ server_id: server.id, failures: up ? 0 : 1, announced: up ? 'up' : null })
    .onConflict((oc) =>
      oc.column('server_id').doUpdateSet({
        failures: up ? 0 : sql<number>`notification_server_watch.failures + 1`,
      }),
    )
    .returning(['failures', 'announced'])
    .executeTakeFirstOrThrow();
  const name = server.description.trim() === '' ? 'A game server' : server.description;
  const url = '/personal/game-servers';
  if (!up && row.failures >= FAILURES_FOR_DOWN && row.announced === 'up') {
    await db.updateTable('notification_server_watch').set({ announced: 'down' }).where('server_id', '=', server.id).execute();
    await recordEvent(db, { kind: 'server.down', subjectId: server.id, title: `${name} stopped answering`, body: 'It did not answer two checks in a row.', url });
  } else if (up && row.announced === 'down') {
    await db.updateTable('notification_server_watch').set({ announced: 'up' }).where('server_id', '=', server.id).execute();
    await recordEvent(db, { kind: 'server.up', subjectId: server.id, title: `${name} is back`, body: 'It answers again.', url });
  } else if (up && row.announced === null) {
    await db.updateTable('notification_server_watch').set({ announced: 'up' }).where('server_id', '=', server.id).execute();
  }
}
