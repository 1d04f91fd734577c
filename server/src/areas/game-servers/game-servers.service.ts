import {
  gameServerMessages,
  type AddGameServerInput,
  type GameServer,
  type GameServerStatus,
  type RemoveGameServerInput,
  type UpdateGameServerInput,
} from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import * as repo from './game-servers.repository.ts';
import { createStatusProbe, type StatusProbe } from './status-probe.ts';

/** One probe (and so one cache) per running app, made on first use from its GAME_HOST. */
const probes = new WeakMap<AppDeps, StatusProbe>();

export function probeFor(deps: AppDeps): StatusProbe {
  let probe = probes.get(deps);
  if (!probe) probes.set(deps, (probe = createStatusProbe({ host: deps.config.gameHost })));
  return probe;
}

/** Replaces the app's probe (tests: a short time-out or a scripted dial). */
export function setProbe(deps: AppDeps, probe: StatusProbe): void {
  probes.set(deps, probe);
}

export function addressOf(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

type Row = { id: number; port: number; description: string };
const withStatus = (deps: AppDeps, row: Row, status: GameServerStatus): GameServer => ({
  ...row,
  status,
  address: addressOf(deps.config.gameHost, row.port),
});

export async function list(deps: AppDeps): Promise<GameServer[]> {
  const rows = await repo.listServers(deps.db);
  const statuses = await probeFor(deps).statuses(rows.map((r) => r.port));
  return rows.map((row) => withStatus(deps, row, statuses.get(row.port) ?? 'Unknown'));
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
  probeFor(deps).forget(row.port);
  const statuses = await probeFor(deps).statuses([row.port]);
  return withStatus(deps, row, statuses.get(row.port) ?? 'Unknown');
}

export async function update(deps: AppDeps, input: UpdateGameServerInput): Promise<GameServer> {
  await portFree(deps, input.port, input.id);
  const row = await uniquePort(() => repo.updateServer(deps.db, input.id, { port: input.port, description: input.description }));
  if (!row) throw new AppError('NOT_FOUND', gameServerMessages.notFound);
  probeFor(deps).forget(row.port);
  const statuses = await probeFor(deps).statuses([row.port]);
  return withStatus(deps, row, statuses.get(row.port) ?? 'Unknown');
}

export async function remove(deps: AppDeps, input: RemoveGameServerInput): Promise<{ id: number }> {
  const row = await repo.deleteServer(deps.db, input.id);
  if (!row) throw new AppError('NOT_FOUND', gameServerMessages.notFound);
  probeFor(deps).forget(row.port);
  return { id: row.id };
}
