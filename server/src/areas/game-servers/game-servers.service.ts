import {
  gameServerMessages,
  OTHER_GAME,
  type AddGameServerInput,
  type GameServer,
  type GameServerGame,
  type GameServerStatus,
  type RemoveGameServerInput,
  type UpdateGameServerInput,
} from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import * as repo from './game-servers.repository.ts';
import { createGameQuery, type GameQuery } from './game-query.ts';
import { serverChecked } from '../notifications/notifications.events.ts';

/** One query function per running app; queries in flight on this instance, so its viewers share them. */
const queries = new WeakMap<AppDeps, GameQuery>();
const inFlight = new WeakMap<AppDeps, Map<number, Promise<void>>>();

function queryFor(deps: AppDeps): GameQuery {
  let query = queries.get(deps);
  if (!query) queries.set(deps, (query = createGameQuery()));
  return query;
}

/** Replaces the app's query (tests: short time-outs, or a counted one). */
export function setGameQuery(deps: AppDeps, query: GameQuery): void {
  queries.set(deps, query);
}

export function addressOf(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

type Row = { id: number; port: number; description: string; game: string };

/**
 * Starts the queries this instance wins the claim for (at most once per 30 s each, across all
 * instances), in the background: nobody waits for a game server. Each answer is stored when it comes,
 * and the status table's trigger tells the open pages (the live feed), which list again.
 */
function refresh(deps: AppDeps, rows: readonly Row[]): void {
  let flying = inFlight.get(deps);
  if (!flying) inFlight.set(deps, (flying = new Map()));
  const mine = flying;
  const start = async () => {
    const claimed = await repo.claim(deps.db, rows.filter((r) => !mine.has(r.id)).map((r) => r.id));
    for (const row of rows) {
      if (!claimed.has(row.id) || mine.has(row.id)) continue;
      const done = queryFor(deps)(row.game, deps.config.gameHost, row.port)
        .then((snapshot) =>
          deps.db.transaction().execute(async (trx) => {
            await repo.saveSnapshot(trx, row.id, snapshot, row.game !== OTHER_GAME);
            await serverChecked(trx, row, snapshot.status);
          }),
        )
        // The query never throws; a save can only fail when the server was removed meanwhile: nothing to keep.
        .catch(() => undefined)
        .finally(() => mine.delete(row.id));
      mine.set(row.id, done);
    }
  };
  let claims = claiming.get(deps);
  if (!claims) claiming.set(deps, (claims = new Set()));
  const pending = claims;
  const started = start()
    .catch(() => undefined)
    .finally(() => pending.delete(started));
  pending.add(started);
}

/** Claims being made on this instance (a query starts once its claim is won). */
const claiming = new WeakMap<AppDeps, Set<Promise<void>>>();

/** Resolves once the queries started so far have stored their answers (tests, and a clean stop). */
export async function queriesSettled(deps: AppDeps): Promise<void> {
  await Promise.all(claiming.get(deps) ?? []);
  await Promise.all(inFlight.get(deps)?.values() ?? []);
}

async function present(deps: AppDeps, rows: readonly Row[]): Promise<GameServer[]> {
  const ids = rows.map((r) => r.id);
  const [statuses, history] = await Promise.all([repo.readStatuses(deps.db, ids), repo.readHistory(deps.db, ids)]);
  const byId = new Map(statuses.map((s) => [s.server_id, s]));
  const historyOf = new Map<number, { at: string; players: number }[]>();
  for (const h of history) {
    let points = historyOf.get(h.server_id);
    if (!points) historyOf.set(h.server_id, (points = []));
    points.push({ at: new Date(h.at).toISOString(), players: Number(h.players) });
  }
  return rows.map((row) => {
    const s = byId.get(row.id);
    const known = s?.queried_at ? s : undefined;
    return {
      id: row.id,
      port: row.port,
      description: row.description,
      address: addressOf(deps.config.gameHost, row.port),
      game: row.game as GameServerGame,
      status: (known?.status ?? 'Unknown') as GameServerStatus,
      players: known && known.players !== null && known.max_players !== null ? { online: known.players, max: known.max_players } : null,
      playerNames: known ? (JSON.parse(known.player_names) as string[]) : [],
      map: known?.map ?? null,
      version: known?.version ?? null,
      pingMs: known?.ping_ms ?? null,
      onlineSince: known?.online_since ? new Date(known.online_since).toISOString() : null,
      checkedAt: known?.queried_at ? new Date(known.queried_at).toISOString() : null,
      history: historyOf.get(row.id) ?? [],
    };
  });
}

/**
 * The stored answers, at once; a query that writes only its own cache (the stored answers and the
 * players' history) in the background: whoever asks, and however often, at most one game query per
 * server per 30 s follows. A server never asked yet has checkedAt null (the page says it is checking).
 */
export async function list(deps: AppDeps): Promise<GameServer[]> {
  const rows = await repo.listServers(deps.db);
  refresh(deps, rows);
  return present(deps, rows);
}

async function one(deps: AppDeps, row: Row): Promise<GameServer> {
  refresh(deps, [row]);
  const [server] = await present(deps, [row]);
  if (!server) throw new AppError('NOT_FOUND', gameServerMessages.notFound);
  return server;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

async function portFree(deps: AppDeps, port: number, id?: number) {
  const holder = await repo.findByPort(deps.db, port);
  if (holder && holder.id !== id) throw new AppError('CONFLICT', gameServerMessages.portTaken);
}

/** Runs a write whose unique port may race another admin's: the constraint has the last word. */
async function uniquePort<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', gameServerMessages.portTaken);
    throw error;
  }
}

export async function add(deps: AppDeps, input: AddGameServerInput): Promise<GameServer> {
  await portFree(deps, input.port);
  const row = await uniquePort(() => repo.insertServer(deps.db, input));
  return one(deps, row);
}

export async function update(deps: AppDeps, input: UpdateGameServerInput): Promise<GameServer> {
  await portFree(deps, input.port, input.id);
  const before = await repo.findById(deps.db, input.id);
  const row = await uniquePort(() => repo.updateServer(deps.db, input.id, { port: input.port, description: input.description, game: input.game }));
  if (!row || !before) throw new AppError('NOT_FOUND', gameServerMessages.notFound);
  if (before.port !== row.port || before.game !== row.game) await repo.forget(deps.db, row.id);
  return one(deps, row);
}

export async function remove(deps: AppDeps, input: RemoveGameServerInput): Promise<{ id: number }> {
  const row = await repo.deleteServer(deps.db, input.id);
  if (!row) throw new AppError('NOT_FOUND', gameServerMessages.notFound);
  return { id: row.id };
}
