import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gameServerMessages } from '@site/contracts';
import { createStatusProbe, type Dial } from '../../src/areas/game-servers/status-probe.ts';
import { setProbe } from '../../src/areas/game-servers/game-servers.service.ts';
import { callerFor, cookieFor, createUser, databases, postJson, useTestServer } from '../helpers.ts';

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

describe('the status probe', () => {
  it('says Online for a listening port and Offline for a refused one, probing in parallel', async () => {
    const [open, closed] = [await listening(), await closedPort()];
    const probe = createStatusProbe({ host: '127.0.0.1', timeoutMs: 10_000 });
    const statuses = await probe.statuses([open, closed]);
    expect([statuses.get(open), statuses.get(closed)]).toEqual(['Online', 'Offline']);
  });

  it('says Unknown when the host does not answer within the time-out, even if the dial never settles', async () => {
    const silent: Dial = () => new Promise(() => {});
    const probe = createStatusProbe({ host: '192.0.2.1', timeoutMs: 30, dial: silent });
    expect((await probe.statuses([7777])).get(7777)).toBe('Unknown');
    const unreachable: Dial = () => Promise.reject(Object.assign(new Error('no route'), { code: 'EHOSTUNREACH' }));
    expect((await createStatusProbe({ host: 'x', dial: unreachable }).statuses([1])).get(1)).toBe('Unknown');
  });

  it('reuses an answer for a few seconds, shares one probe between concurrent callers, and can forget', async () => {
    let dials = 0;
    let clock = 0;
    const dial: Dial = async () => {
      dials += 1;
    };
    const probe = createStatusProbe({ host: 'h', ttlMs: 5000, dial, now: () => clock });
    await Promise.all([probe.statuses([10, 11]), probe.statuses([10])]);
    expect(dials).toBe(2);
    clock = 4999;
    await probe.statuses([10, 11]);
    expect(dials).toBe(2);
    clock = 5000;
    await probe.statuses([10]);
    expect(dials).toBe(3);
    probe.forget(11);
    await probe.statuses([11]);
    expect(dials).toBe(4);
  });
});

describe.each(databases)('game servers (%s)', (kind) => {
  const s = useTestServer(kind, { GAME_HOST: '127.0.0.1' });

  it('lists servers by port with live status and the address players copy', async () => {
    setProbe(s.deps, createStatusProbe({ host: '127.0.0.1', timeoutMs: 10_000 }));
    const [open, closed] = [await listening(), await closedPort()];
    const admin = callerFor(s.deps, await createUser(s.deps, 'boss', 3));
    await admin.gameServers.add({ port: closed, description: 'Valheim' });
    await admin.gameServers.add({ port: open, description: ' Minecraft ' });
    const friend = callerFor(s.deps, await createUser(s.deps, 'amy', 1));
    const list = await friend.gameServers.list();
    expect(list.sort((a, b) => a.port - b.port)).toEqual(
      [
        { id: expect.any(Number), port: open, description: 'Minecraft', status: 'Online', address: `127.0.0.1:${open}` },
        { id: expect.any(Number), port: closed, description: 'Valheim', status: 'Offline', address: `127.0.0.1:${closed}` },
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
