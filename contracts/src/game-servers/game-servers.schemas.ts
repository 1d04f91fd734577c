import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { text } from '../text.ts';

/**
 * Online answered (its game's protocol, or a TCP connect for Other), Offline refused or did not answer
 * its game's query, Unknown could not tell in time (or has not been asked yet).
 */
export const GAME_SERVER_STATUSES = ['Online', 'Offline', 'Unknown'] as const;
export type GameServerStatus = (typeof GAME_SERVER_STATUSES)[number];

export const GAME_SERVER_DESCRIPTION_MAX = 200;

export const gameServerMessages = {
  badPort: 'The port must be a whole number from 1 to 65535',
  portTaken: 'Another server already uses that port',
  notFound: 'No such game server',
  badId: 'A server is named by its id, a whole number',
  copied: 'Address copied to clipboard',
  badGame: 'Choose a game from the list',
} as const;

/** Other (TCP): only whether the port accepts a connection, as before games could be chosen. */
export const OTHER_GAME = 'tcp';

/**
 * The games the admin form offers: GameDig type ids (https://github.com/gamedig/node-gamedig) whose query
 * needs nothing but the host and port. Kept short on purpose; Other (TCP) covers the rest.
 */
export const GAME_SERVER_GAMES = [
  { id: 'minecraft', name: 'Minecraft' },
  { id: 'valheim', name: 'Valheim' },
  { id: 'counterstrike2', name: 'Counter-Strike 2' },
  { id: 'teamfortress2', name: 'Team Fortress 2' },
  { id: 'garrysmod', name: "Garry's Mod" },
  { id: 'rust', name: 'Rust' },
  { id: 'ase', name: 'ARK: Survival Evolved' },
  { id: 'sdtd', name: '7 Days to Die' },
  { id: 'projectzomboid', name: 'Project Zomboid' },
  { id: 'satisfactory', name: 'Satisfactory' },
  { id: 'vrising', name: 'V Rising' },
  { id: OTHER_GAME, name: 'Other (TCP)' },
] as const;
export type GameServerGame = (typeof GAME_SERVER_GAMES)[number]['id'];
const gameIds = GAME_SERVER_GAMES.map((g) => g.id) as [GameServerGame, ...GameServerGame[]];
export const gameServerGame = z.enum(gameIds, { error: gameServerMessages.badGame });
export const gameNameOf = (id: string): string => GAME_SERVER_GAMES.find((g) => g.id === id)?.name ?? id;

/** How often a server is queried at most, whatever the number of viewers and instances. */
export const GAME_SERVER_QUERY_INTERVAL_S = 30;
/** How far back the players sparkline reaches. */
export const GAME_SERVER_HISTORY_HOURS = 24;
/** At most this many player names are sent (a full server can list hundreds). */
export const GAME_SERVER_NAMES_MAX = 50;

export const gameServerPort = z
  .number({ error: gameServerMessages.badPort })
  .int({ error: gameServerMessages.badPort })
  .min(1, { error: gameServerMessages.badPort })
  .max(65535, { error: gameServerMessages.badPort });
const gameServerId = rowId(gameServerMessages.badId);
const description = text({ label: 'Description', max: GAME_SERVER_DESCRIPTION_MAX, trim: true, min: 1 });

export type GameServer = {
  id: number;
  port: number;
  description: string;
  status: GameServerStatus;
  /** host:port as players type it (the host is the GAME_HOST setting). */
  address: string;
  /** A GameDig type id, or Other (TCP). */
  game: GameServerGame;
  /** Players online and the maximum, when the game's protocol tells (null for Other, or when down). */
  players: { online: number; max: number } | null;
  /** Player names where the protocol gives them (often a sample, not everyone). */
  playerNames: string[];
  map: string | null;
  version: string | null;
  pingMs: number | null;
  /** ISO time the server was first seen Online in its current run; null when not Online. */
  onlineSince: string | null;
  /** ISO time of the last query; null before the first. */
  checkedAt: string | null;
  /** Players over the last 24 hours, oldest first: the most seen in each half hour (0 when down). */
  history: { at: string; players: number }[];
};

export const addGameServerInput = z.object({ port: gameServerPort, description, game: gameServerGame.default(OTHER_GAME) });
export type AddGameServerInput = z.infer<typeof addGameServerInput>;
export const updateGameServerInput = z.object({ id: gameServerId, port: gameServerPort, description, game: gameServerGame.default(OTHER_GAME) });
export type UpdateGameServerInput = z.infer<typeof updateGameServerInput>;
export const removeGameServerInput = z.object({ id: gameServerId });
export type RemoveGameServerInput = z.infer<typeof removeGameServerInput>;
