import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { text } from '../text.ts';

/** Live, never stored: Online answered a TCP connect, Offline refused it, Unknown could not tell in time. */
export const GAME_SERVER_STATUSES = ['Online', 'Offline', 'Unknown'] as const;
export type GameServerStatus = (typeof GAME_SERVER_STATUSES)[number];

export const GAME_SERVER_DESCRIPTION_MAX = 200;

export const gameServerMessages = {
  badPort: 'The port must be a whole number from 1 to 65535',
  portTaken: 'Another server already uses that port',
  notFound: 'No such game server',
  badId: 'A server is named by its id, a whole number',
  copied: 'Address copied to clipboard',
} as const;

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
};

export const addGameServerInput = z.object({ port: gameServerPort, description });
export type AddGameServerInput = z.infer<typeof addGameServerInput>;
export const updateGameServerInput = z.object({ id: gameServerId, port: gameServerPort, description });
export type UpdateGameServerInput = z.infer<typeof updateGameServerInput>;
export const removeGameServerInput = z.object({ id: gameServerId });
export type RemoveGameServerInput = z.infer<typeof removeGameServerInput>;
