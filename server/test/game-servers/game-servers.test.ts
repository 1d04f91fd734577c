import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gameServerMessages } from '@site/contracts';
import { sql } from 'kysely';
import { tcpStatus, type Dial } from '../../src/areas/game-servers/status-probe.ts';
import { createGameQuery, type GameQuery } from '../../src/areas/game-servers/game-query.ts';
import { queriesSettled, setGameQuery } from '../../src/areas/game-servers/game-servers.service.ts';
import { HISTORY_BUCKET_S, claim } from '../../src/areas/game-servers/game-servers.repository.ts';
import { callerFor, cookieFor, createUser, databases, postJson, useTestServer } from '../helpers.ts';
import { paperStatus, startMinecraftResponder } from './minecraft-responder.ts';

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A real listening socket on 127.0.0.1, on a port the system picks. */
async function listening(): Promise<number> {
  const server = net.createServer((socket) => socket.destroy());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** A port that was just free: listened on, then closed, so a connect is refused. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the TCP check (Other)', () => {
  it('says Online for a listening port and Offline for a refused one', async () => {
    const [open, closed] = [await listening(), await closedPort()];
    expect([await tcpStatus('127.0.0.1', open, { timeoutMs: 10_000 }), await tcpStatus('127.0.0.1', closed, { timeoutMs: 10_000 })]).toEqual(['Online', 'Offline']);
  });

  it('says Unknown when the host does not answer within the time-out, even if the dial never settles', async () => {
    const silent: Dial = () => new Promise(() => {});
    expect(await tcpStatus('192.0.2.1', 7777, { timeoutMs: 30, dial: silent })).toBe('Unknown');
    const unreachable: Dial = () => Promise.reject(Object.assign(new Error('no route'), { code: 'EHOSTUNREACH' }));
    expect(await tcpStatus('x', 1, { dial: unreachable })).toBe('Unknown');
  });
});

/**
 * Short bounds: Minecraft's query also asks two UDP variants, which nothing answers on 127.0.0.1, so
 * each query takes one socket time-out; 1.5 s leaves a busy 2-core machine time to answer the TCP one.
 */
const fastQuery = () => createGameQuery({ timeoutMs: 5000, socketTimeoutMs: 1500 });

describe("GameDig's minecraft query against a Server List Ping responder on 127.0.0.1", () => {
  it('reads players online and maximum, the sample names, version and ping', async () => {
    // Real servers colour names with § codes, and some send only a blank-ish line.
    const mc = await startMinecraftResponder(paperStatus(['Steve', 'Alex', '§bNotch', '§r ']));
    try {
      const snapshot = await fastQuery()('minecraft', '127.0.0.1', mc.port);
      expect(snapshot).toEqual({
        status: 'Online',
        players: 4,
        maxPlayers: 20,
        playerNames: ['Steve', 'Alex', 'Notch'],
        map: null,
        version: 'Paper 1.21.1',
        pingMs: expect.any(Number),
      });
      expect(mc.connections()).toBe(1);
    } finally {
      await mc.close();
    }
  });

  it('says Offline when nothing answers the game protocol, within the time limit', async () => {
    const closed = await closedPort();
    expect(await fastQuery()('minecraft', '127.0.0.1', closed)).toMatchObject({ status: 'Offline', players: null, playerNames: [] });
    // A port that accepts TCP but never speaks the protocol is not a Minecraft server either.
    const mute = net.createServer((socket) => socket.resume());
    servers.push(mute);
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const port = (mute.address() as net.AddressInfo).port;
    expect(await createGameQuery({ timeoutMs: 400, socketTimeoutMs: 200 })('minecraft', '127.0.0.1', port)).toMatchObject({ status: 'Offline' });
  });
});

const noPlayers = { players: null, playerNames: [], map: null, version: null, pingMs: null, history: [] };

describe.each(databases)('game servers (%s)', (kind) => {
  const s = useTestServer(kind, { GAME_HOST: '127.0.0.1' });

  it('lists servers by port with live status and the address players copy', async () => {
    setGameQuery(s.deps, createGameQuery({ timeoutMs: 10_000 }));
    const [open, closed] = [await listening(), await closedPort()];
    const admin = callerFor(s.deps, await createUser(s.deps, 'boss', 3));
    await admin.gameServers.add({ port: closed, description: 'Valheim' });
    await admin.gameServers.add({ port: open, description: ' Minecraft ' });
    const friend = callerFor(s.deps, await createUser(s.deps, 'amy', 1));
    // The adds started the queries in the background; their answers are stored when they come.
    await queriesSettled(s.deps);
    const list = await friend.gameServers.list();
    expect(list.sort((a, b) => a.port - b.port)).toEqual(
      [
        { id: expect.any(Number), port: open, description: 'Minecraft', status: 'Online', address: `127.0.0.1:${open}`, game: 'tcp', ...noPlayers, onlineSince: expect.any(String), checkedAt: expect.any(String) },
        { id: expect.any(Number), port: closed, description: 'Valheim', status: 'Offline', address: `127.0.0.1:${closed}`, game: 'tcp', ...noPlayers, onlineSince: null, checkedAt: expect.any(String) },
      ].sort((a, b) => a.port - b.port),
    );
  });

  it('lets admins edit and remove, with a unique port from 1 to 65535 and a description', async () => {
    const admin = callerFor(s.deps, await createUser(s.deps, 'boss', 3));
    const a = await admin.gameServers.add({ port: 1, description: 'A' });
    const b = await admin.gameServers.add({ port: 2, description: 'B' });
    await expect(admin.gameServers.add({ port: 1, description: 'again' })).rejects.toMatchObject({ code: 'CONFLICT', message: gameServerMessages.portTaken });
    await expect(admin.gameServers.update({ id: b.id, port: 1, description: 'B' })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await admin.gameServers.update({ id: a.id, port: 3, description: 'A2' })).toMatchObject({ id: a.id, port: 3, description: 'A2' });
    expect(await admin.gameServers.update({ id: a.id, port: 3, description: 'A3' })).toMatchObject({ port: 3, description: 'A3' });
    await admin.gameServers.remove({ id: b.id });
    await expect(admin.gameServers.remove({ id: b.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: gameServerMessages.notFound });
    expect((await admin.gameServers.list()).map((g) => g.port)).toEqual([3]);
  });

  it('refuses bad ports and descriptions readably, and members below admin', async () => {
    const cookie = await cookieFor(s.deps, 3);
    const cases: [unknown, string][] = [
      [{ port: 0, description: 'x' }, `port: ${gameServerMessages.badPort}`],
      [{ port: 65536, description: 'x' }, `port: ${gameServerMessages.badPort}`],
      [{ port: 1.5, description: 'x' }, `port: ${gameServerMessages.badPort}`],
      [{ port: 80, description: ' ' }, 'Description may not be empty'],
      [{ port: 80, description: 'x', game: 'pong' }, `game: ${gameServerMessages.badGame}`],
    ];
    for (const [json, message] of cases) {
      const res = await s.app.inject({ method: 'POST', url: '/trpc/gameServers.add', headers: { cookie, 'content-type': 'application/json' }, payload: JSON.stringify(json) });
      expect([res.statusCode, res.json().error.message]).toEqual([400, message]);
    }
    const friend = await cookieFor(s.deps, 2, 'fam');
    const res = await s.app.inject({ method: 'POST', url: '/trpc/gameServers.add', headers: { cookie: friend, 'content-type': 'application/json' }, payload: JSON.stringify({ port: 80, description: 'x' }) });
    expect(res.statusCode).toBe(403);
    expect((await postJson(s.app, '/api/game-servers/get', undefined, cookie)).json()).toEqual([]);
  });
});

describe.each(databases)('game servers with a game protocol (%s)', (kind) => {
  const s = useTestServer(kind, { GAME_HOST: '127.0.0.1' });
  const responders: { close: () => Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(responders.splice(0).map((r) => r.close()));
  });

  /** Moves every claim and answer 31 s into the past, as if the 30 s window had gone by. */
  const windowPasses = () => sql`update game_server_status set claimed_at = claimed_at - interval '31 seconds', queried_at = queried_at - interval '31 seconds'`.execute(s.db);

  it('queries each server once per 30 s for 50 parallel viewers on two instances, sharing one stored answer', async () => {
    const mc = await startMinecraftResponder(paperStatus(['Steve', 'Alex']));
    responders.push(mc);
    // A second instance: its own app state (query, queries in flight), the same database.
    const other = { ...s.deps };
    // Queries counted, not connections: a query running beside 50 reads may retry on GameDig's socket
    // time-out (a second connection for one query) on a busy machine.
    let asked = 0;
    const counting = (query: GameQuery): GameQuery => (game, host, port) => {
      asked++;
      return query(game, host, port);
    };
    setGameQuery(s.deps, counting(fastQuery()));
    setGameQuery(other, counting(fastQuery()));
    const admin = callerFor(s.deps, await createUser(s.deps, 'boss', 3));
    const added = await admin.gameServers.add({ port: mc.port, description: 'Family survival', game: 'minecraft' });
    // Added at once, not yet asked (the page says it is checking); the answer follows in the background.
    expect(added).toMatchObject({ status: 'Unknown', game: 'minecraft', checkedAt: null });
    await queriesSettled(s.deps);
    const [first] = await admin.gameServers.list();
    expect(first).toMatchObject({ status: 'Online', game: 'minecraft', players: { online: 2, max: 20 }, playerNames: ['Steve', 'Alex'], checkedAt: expect.any(String) });
    expect(asked).toBe(1);

    await windowPasses();
    mc.setStatus(paperStatus(['Steve', 'Alex', 'Herobrine']));
    const [amy, bob] = [await createUser(s.deps, 'amy', 1), await createUser(s.deps, 'bob', 1)];
    const callers = [callerFor(s.deps, amy), callerFor(other, bob)];
    const viewers = await Promise.all(Array.from({ length: 50 }, (_, i) => callers[i % 2]!.gameServers.list()));
    await Promise.all([queriesSettled(s.deps), queriesSettled(other)]);
    expect(asked).toBe(2);
    // Every viewer got an answer at once: the stored one (none waits for the query).
    for (const [server] of viewers) expect([2, 3]).toContain(server?.players?.online);

    const [again] = await callerFor(other, await createUser(other, 'late', 1)).gameServers.list();
    expect(asked).toBe(2);
    expect(again).toMatchObject({ status: 'Online', players: { online: 3, max: 20 }, playerNames: ['Steve', 'Alex', 'Herobrine'], version: 'Paper 1.21.1', pingMs: expect.any(Number) });
    expect(again?.onlineSince).toBe(first?.onlineSince);
    // The /api keeps its documented fields only.
    const legacy = await postJson(s.app, '/api/game-servers/get', undefined, await cookieFor(s.deps, 1));
    expect(legacy.json()).toEqual([{ status: 'Online', port: mc.port, description: 'Family survival' }]);
  });

  it('keeps 24 hours of players, says Offline with no online-since when the server stops, and forgets on a change of game', async () => {
    // The two readings below must share one half-hour bucket (aligned on the clock): a test started
    // seconds before a boundary waits for it (one CI run read [4, 1, 1] across one).
    const toBoundary = HISTORY_BUCKET_S * 1000 - (Date.now() % (HISTORY_BUCKET_S * 1000));
    if (toBoundary < 20_000) await new Promise((resolve) => setTimeout(resolve, toBoundary + 200));
    const mc = await startMinecraftResponder(paperStatus(['Steve']));
    responders.push(mc);
    setGameQuery(s.deps, fastQuery());
    const admin = callerFor(s.deps, await createUser(s.deps, 'boss', 3));
    const added = await admin.gameServers.add({ port: mc.port, description: 'MC', game: 'minecraft' });
    await queriesSettled(s.deps);
    await sql`insert into game_server_history (server_id, at, players) values (${added.id}, now() - interval '25 hours', 9), (${added.id}, now() - interval '3 hours', 4)`.execute(s.db);
    await windowPasses();
    await admin.gameServers.list();
    await queriesSettled(s.deps);
    const [first] = await admin.gameServers.list();
    // The 25-hour-old row is pruned; the others are half-hour buckets, oldest first.
    expect(first?.history.map((h) => h.players)).toEqual([4, 1]);
    const rows = await s.db.selectFrom('game_server_history').select('players').where('server_id', '=', added.id).execute();
    expect(rows.map((r) => r.players).sort()).toEqual([1, 1, 4]);

    await mc.close();
    await windowPasses();
    await admin.gameServers.list();
    await queriesSettled(s.deps);
    const [stopped] = await admin.gameServers.list();
    expect(stopped).toMatchObject({ status: 'Offline', players: null, playerNames: [], onlineSince: null });
    expect(stopped?.history.at(-1)?.players).toBe(1);

    const moved = await admin.gameServers.update({ id: added.id, port: mc.port, description: 'MC', game: 'tcp' });
    expect(moved).toMatchObject({ game: 'tcp', status: 'Unknown', checkedAt: null, history: [] });
    await queriesSettled(s.deps);
    expect((await admin.gameServers.list())[0]).toMatchObject({ game: 'tcp', status: 'Offline', history: [] });

    // A server removed between reading the list and claiming it is simply not queried.
    await admin.gameServers.remove({ id: added.id });
    expect(await claim(s.db, [added.id])).toEqual(new Set());
  });
});
