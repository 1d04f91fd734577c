// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- GameDig ships no types, and the client typecheck reaches this file through the router type
/// <reference path="./gamedig.d.ts" />
import { GameDig } from 'gamedig';
import { GAME_SERVER_NAMES_MAX, OTHER_GAME, type GameServerStatus } from '@site/contracts';
import { tcpStatus, type Dial } from './status-probe.ts';

/** What one query learnt about a server. */
export type Snapshot = {
  status: GameServerStatus;
  players: number | null;
  maxPlayers: number | null;
  playerNames: string[];
  map: string | null;
  version: string | null;
  pingMs: number | null;
};

/** Asks one server how it is: its game's protocol, or a TCP connect for Other. Never throws. */
export type GameQuery = (game: string, host: string, port: number) => Promise<Snapshot>;

export type GameQueryOptions = {
  /** The whole query, every attempt and protocol included; after it the answer is Unknown/Offline. */
  timeoutMs?: number;
  /** One socket read (GameDig's socketTimeout): Minecraft's query also waits this long on its UDP variants. */
  socketTimeoutMs?: number;
  dial?: Dial;
};

const blank = (status: GameServerStatus): Snapshot => ({ status, players: null, maxPlayers: null, playerNames: [], map: null, version: null, pingMs: null });

/** Trimmed, without Minecraft's § formatting codes (servers colour names and fake sample lines). */
const text = (value: unknown): string | null => {
  const plain = typeof value === 'string' ? value.replace(/\u00a7./g, '').trim() : '';
  return plain === '' ? null : plain.slice(0, 200);
};
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);

export function createGameQuery(options: GameQueryOptions = {}): GameQuery {
  const { timeoutMs = 5000, socketTimeoutMs = 2000, dial } = options;
  const gamedig = new GameDig();

  async function viaGamedig(game: string, host: string, port: number): Promise<Snapshot> {
    let timer: NodeJS.Timeout | undefined;
    // GameDig bounds each attempt; this bounds the whole (retries, port offsets, DNS) in case it does not.
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs + 100);
    });
    const answer = gamedig
      .query({ type: game, host, port, socketTimeout: Math.min(socketTimeoutMs, timeoutMs), attemptTimeout: timeoutMs, maxRetries: 1, portCache: false })
      .catch(() => null);
    try {
      const state = await Promise.race([answer, late]);
      if (!state) return blank('Offline');
      const names = state.players.map((p) => text(p.name)).filter((name): name is string => name !== null);
      return {
        status: 'Online',
        players: count(state.numplayers) ?? state.players.length,
        maxPlayers: count(state.maxplayers),
        playerNames: names.slice(0, GAME_SERVER_NAMES_MAX),
        map: text(state.map),
        version: text(state.version),
        pingMs: count(Math.round(state.ping)),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  return async (game, host, port) => {
    if (game === OTHER_GAME) return blank(await tcpStatus(host, port, { timeoutMs, dial }));
    return viaGamedig(game, host, port);
  };
}
