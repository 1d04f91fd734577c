// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- GameDig ships no types, and the client typecheck reaches this file through the router type
/// <reference path="./gamedig.d.ts" />
import type * as GameDigModule from 'gamedig';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Socket } from 'node:net';
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
  /** The most bytes one query reads from the server, TCP and UDP together; past it the query stops (Offline). */
  maxBytes?: number;
  /** Told the bytes each query read (tests and the bench). */
  onRead?: (bytes: number) => void;
};

/**
 * A real answer is a few KB (a Minecraft status with its icon and a long player sample stays well under
 * 64 KB); a server that streams without end is cut here, so its data costs bounded memory and CPU.
 */
export const GAME_QUERY_MAX_BYTES = 256 * 1024;

/** What one GameDig query may still read: shared by the protocol instances of its attempts. */
type Budget = { left: number; read: number; over: boolean };

/**
 * The budget of the query running in this async context. GameDig reads every TCP socket through
 * Core.withTcp and every UDP answer through Core.udpSend; both are wrapped once (below) to count
 * what arrives against the budget and stop the read when it is spent. GameDig has no option for it.
 */
const budgets = new AsyncLocalStorage<Budget>();

type CoreMethods = {
  withTcp(fn: (socket: Socket) => Promise<unknown>, port?: number): Promise<unknown>;
  udpSend(buffer: Buffer | string, onPacket?: (buffer: Buffer) => unknown, onTimeout?: () => unknown): Promise<unknown>;
};

class QueryTooLargeError extends Error {}

function spend(budget: Budget, bytes: number): boolean {
  if (budget.over) return false;
  budget.read += bytes;
  budget.left -= bytes;
  if (budget.left < 0) budget.over = true;
  return !budget.over;
}

/** GameDig is loaded at the first query, not when the server starts (about 0.5 s of a start), and capped once. */
let loading: Promise<typeof GameDigModule> | undefined;
const loadGameDig = () =>
  (loading ??= import('gamedig').then((module) => {
    capGameDigReads(module.protocols);
    return module;
  }));

let wrapped = false;
/** Wraps GameDig's two read paths (its protocols share one base class) with the byte budget. */
function capGameDigReads(protocols: Record<string, { prototype: object }>): void {
  if (wrapped) return;
  // The base class every protocol extends: the prototype that holds withTcp itself.
  let core: object | null = protocols.minecraftvanilla?.prototype ?? null;
  while (core && !Object.hasOwn(core, 'withTcp')) core = Object.getPrototypeOf(core) as object | null;
  if (!core || !Object.hasOwn(core, 'udpSend')) {
    throw new Error('GameDig changed: Core.withTcp/udpSend not found, so game queries cannot be capped');
  }
  wrapped = true;
  const base = core as CoreMethods;
  const withTcp = base.withTcp;
  base.withTcp = function (this: CoreMethods, fn, port) {
    const budget = budgets.getStore();
    if (!budget) return withTcp.call(this, fn, port);
    return withTcp.call(
      this,
      (socket) => {
        // Registered before GameDig's own reader, so the chunk past the budget is the last one it sees.
        socket.on('data', (chunk: Buffer) => {
          if (!spend(budget, chunk.length)) socket.destroy(new QueryTooLargeError('the server sent more than a query reads'));
        });
        return fn(socket);
      },
      port,
    );
  };
  const udpSend = base.udpSend;
  base.udpSend = function (this: CoreMethods, buffer, onPacket, onTimeout) {
    const budget = budgets.getStore();
    if (!budget || !onPacket) return udpSend.call(this, buffer, onPacket, onTimeout);
    return udpSend.call(
      this,
      buffer,
      (packet: Buffer) => {
        if (!spend(budget, packet.length)) throw new QueryTooLargeError('the server sent more than a query reads');
        return onPacket(packet);
      },
      onTimeout,
    );
  };
}

const blank = (status: GameServerStatus): Snapshot => ({ status, players: null, maxPlayers: null, playerNames: [], map: null, version: null, pingMs: null });

/** Trimmed, without Minecraft's § formatting codes (servers colour names and fake sample lines). */
const text = (value: unknown): string | null => {
  const plain = typeof value === 'string' ? value.replace(/\u00a7./g, '').trim() : '';
  return plain === '' ? null : plain.slice(0, 200);
};
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);

export function createGameQuery(options: GameQueryOptions = {}): GameQuery {
  const { timeoutMs = 5000, socketTimeoutMs = 2000, dial, maxBytes = GAME_QUERY_MAX_BYTES, onRead } = options;
  let gamedig: GameDigModule.GameDig | undefined;

  async function viaGamedig(game: string, host: string, port: number): Promise<Snapshot> {
    const client = (gamedig ??= new (await loadGameDig()).GameDig());
    let timer: NodeJS.Timeout | undefined;
    // GameDig bounds each attempt; this bounds the whole (retries, port offsets, DNS) in case it does not.
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs + 100);
    });
    const budget: Budget = { left: maxBytes, read: 0, over: false };
    const answer = budgets
      .run(budget, () =>
        client.query({ type: game, host, port, socketTimeout: Math.min(socketTimeoutMs, timeoutMs), attemptTimeout: timeoutMs, maxRetries: 1, portCache: false }),
      )
      .catch(() => null);
    try {
      const state = await Promise.race([answer, late]);
      onRead?.(budget.read);
      if (!state || budget.over) return blank('Offline');
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
