import { sql } from 'kysely';
import { GAME_SERVER_HISTORY_HOURS, GAME_SERVER_QUERY_INTERVAL_S } from '@site/contracts';
import type { Executor } from '../../db/database.ts';
import type { Snapshot } from './game-query.ts';

const columns = ['id', 'port', 'description', 'game'] as const;
type Values = { port: number; description: string; game: string };

export function listServers(db: Executor) {
  return db.selectFrom('game_servers').select(columns).orderBy('port').execute();
}

export function findByPort(db: Executor, port: number) {
  return db.selectFrom('game_servers').select(columns).where('port', '=', port).executeTakeFirst();
}

export function findById(db: Executor, id: number) {
  return db.selectFrom('game_servers').select(columns).where('id', '=', id).executeTakeFirst();
}

export function insertServer(db: Executor, values: Values) {
  return db.insertInto('game_servers').values(values).returning(columns).executeTakeFirstOrThrow();
}

export function updateServer(db: Executor, id: number, values: Values) {
  return db.updateTable('game_servers').set(values).where('id', '=', id).returning(columns).executeTakeFirst();
}

export function deleteServer(db: Executor, id: number) {
  return db.deleteFrom('game_servers').where('id', '=', id).returning(columns).executeTakeFirst();
}

/**
 * The claim that makes one query per server per 30 s across every instance: the row's claimed_at moves
 * to now only where it is older than the interval (or the row is new), atomically; the ids returned are
 * this caller's to query. Everyone else reads the stored answer.
 */
export async function claim(db: Executor, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await upsertClaims(db, ids).catch((error: unknown) => {
    // A server removed since the list was read (foreign key): nobody queries this time.
    if ((error as { code?: string } | null)?.code === '23503') return [];
    throw error;
  });
  return new Set(rows.map((r) => r.server_id));
}

function upsertClaims(db: Executor, ids: readonly number[]) {
  return db
    .insertInto('game_server_status')
    .values(ids.map((id) => ({ server_id: id, claimed_at: sql<Date>`now()` })))
    .onConflict((oc) =>
      oc
        .column('server_id')
        .doUpdateSet({ claimed_at: sql<Date>`now()` })
        .where((eb) =>
          eb.or([
            eb('game_server_status.claimed_at', 'is', null),
            eb('game_server_status.claimed_at', '<=', sql<Date>`now() - make_interval(secs => ${sql.lit(GAME_SERVER_QUERY_INTERVAL_S)})`),
          ]),
        ),
    )
    .returning('server_id')
    .execute();
}

/** Stores a query's answer; history keeps players (0 when down) for games that count them. */
export async function saveSnapshot(db: Executor, id: number, snapshot: Snapshot, keepHistory: boolean): Promise<void> {
  await db
    .updateTable('game_server_status')
    .set({
      status: snapshot.status,
      players: snapshot.players,
      max_players: snapshot.maxPlayers,
      player_names: JSON.stringify(snapshot.playerNames),
      map: snapshot.map,
      version: snapshot.version,
      ping_ms: snapshot.pingMs,
      queried_at: sql<Date>`now()`,
      online_since:
        snapshot.status === 'Online'
          ? sql<Date>`case when game_server_status.status = 'Online' and game_server_status.online_since is not null then game_server_status.online_since else now() end`
          : null,
    })
    .where('server_id', '=', id)
    .execute();
  if (!keepHistory) return;
  await db.insertInto('game_server_history').values({ server_id: id, players: snapshot.status === 'Online' ? (snapshot.players ?? 0) : 0 }).execute();
  await db
    .deleteFrom('game_server_history')
    .where('server_id', '=', id)
    .where('at', '<', sql<Date>`now() - make_interval(hours => ${sql.lit(GAME_SERVER_HISTORY_HOURS)})`)
    .execute();
}

/** Forgets what was learnt about a server (its port or game changed): the next view queries it afresh. */
export async function forget(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('game_server_status').where('server_id', '=', id).execute();
  await db.deleteFrom('game_server_history').where('server_id', '=', id).execute();
}

export function readStatuses(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('game_server_status').selectAll().where('server_id', 'in', ids).execute();
}

/** Half-hour buckets of the last 24 h, the most players seen in each, oldest first. */
export const HISTORY_BUCKET_S = 1800;

export function readHistory(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  const bucket = sql<Date>`to_timestamp(floor(extract(epoch from at) / ${sql.lit(HISTORY_BUCKET_S)}) * ${sql.lit(HISTORY_BUCKET_S)})`;
  return db
    .selectFrom('game_server_history')
    .select(['server_id', bucket.as('at'), (eb) => eb.fn.max('players').as('players')])
    .where('server_id', 'in', ids)
    .where('at', '>=', sql<Date>`now() - make_interval(hours => ${sql.lit(GAME_SERVER_HISTORY_HOURS)})`)
    .groupBy(['server_id', bucket])
    .orderBy('server_id')
    .orderBy(bucket)
    .execute();
}
