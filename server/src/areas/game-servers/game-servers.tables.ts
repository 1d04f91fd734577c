import type { Generated, Selectable } from 'kysely';

/** The servers players may join. Their status is probed live, never stored. */
export interface GameServersTable {
  id: Generated<number>;
  port: number;
  description: string;
  created_at: Generated<Date>;
}

export interface GameServersTables {
  game_servers: GameServersTable;
}

export type GameServerRecord = Selectable<GameServersTable>;
