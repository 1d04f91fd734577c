import type { Generated, Selectable } from 'kysely';

/** The servers players may join, and the game whose protocol tells who is on. */
export interface GameServersTable {
  id: Generated<number>;
  port: number;
  description: string;
  game: Generated<string>;
  created_at: Generated<Date>;
}

/** The last answer per server, shared by every instance; claimed_at lets one instance query per 30 s. */
export interface GameServerStatusTable {
  server_id: number;
  status: Generated<string>;
  players: number | null;
  max_players: number | null;
  /** A JSON array of names (text, read the same on PGlite and PostgreSQL). */
  player_names: Generated<string>;
  map: string | null;
  version: string | null;
  ping_ms: number | null;
  online_since: Date | null;
  queried_at: Date | null;
  claimed_at: Date | null;
}

/** Players seen at each query, pruned to 24 hours. */
export interface GameServerHistoryTable {
  server_id: number;
  at: Generated<Date>;
  players: number;
}

export interface GameServersTables {
  game_servers: GameServersTable;
  game_server_status: GameServerStatusTable;
  game_server_history: GameServerHistoryTable;
}

export type GameServerRecord = Selectable<GameServersTable>;
