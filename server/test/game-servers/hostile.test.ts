import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createGameQuery, GAME_QUERY_MAX_BYTES } from '../../src/areas/game-servers/game-query.ts';
import { queriesSettled, setGameQuery } from '../../src/areas/game-servers/game-servers.service.ts';
import { claim, saveSnapshot } from '../../src/areas/game-servers/game-servers.repository.ts';
import { callerFor, createUser, databases, useTestServer } from '../helpers.ts';
import { startEndlessTcp, startEndlessUdp, type Hostile } from '../../src/testing/hostile-game-server.ts';

/** One read of a socket is at most 64 KiB; a UDP packet here is 1,200 bytes. */
const SLACK = 64 * 1024;

const hostiles: Hostile[] = [];
afterEach(async () => {
  await Promise.all(hostiles.splice(0).map((h) => h.close()));
});

/** A query that reports the bytes it read. */
function counted() {
  const reads: number[] = [];
  const query = createGameQuery({ timeoutMs: 5000, socketTimeoutMs: 1500, onRead: (bytes) => reads.push(bytes) });
  return { query, reads };
}

describe('a game server that streams without end (issue 33)', () => {
  it('over TCP: the query stops reading at the cap and says Offline', async () => {
    const tcp = await startEndlessTcp();
    hostiles.push(tcp);
    const { query, reads } = counted();
    expect(await query('minecraft', '127.0.0.1', tcp.port)).toMatchObject({ status: 'Offline', players: null });
    expect(tcp.connections()).toBeGreaterThanOrEqual(1);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toBeGreaterThan(GAME_QUERY_MAX_BYTES);
    expect(reads[0]).toBeLessThanOrEqual(GAME_QUERY_MAX_BYTES + SLACK);
    console.log(`hostile TCP: the server wrote ${(tcp.sent() / 1024 / 1024).toFixed(1)} MB, the query read ${((reads[0] ?? 0) / 1024).toFixed(0)} KB`);
  });

  it('over UDP: the query stops taking packets at the cap and says Offline', async () => {
    const udp = await startEndlessUdp();
    hostiles.push(udp);
    const { query, reads } = counted();
    expect(await query('counterstrike2', '127.0.0.1', udp.port)).toMatchObject({ status: 'Offline', players: null });
    expect(udp.connections()).toBeGreaterThanOrEqual(1);
    expect(reads[0]).toBeGreaterThan(GAME_QUERY_MAX_BYTES);
    expect(reads[0]).toBeLessThanOrEqual(GAME_QUERY_MAX_BYTES + 1200);
    console.log(`hostile UDP: the server sent ${(udp.sent() / 1024 / 1024).toFixed(1)} MB, the query read ${((reads[0] ?? 0) / 1024).toFixed(0)} KB`);
  });

  it('reads a well-behaved answer whole (the cap is far above a real one)', async () => {
    const { startMinecraftResponder, paperStatus } = await import('./minecraft-responder.ts');
    const mc = await startMinecraftResponder(paperStatus(['Steve']));
    try {
      const { query, reads } = counted();
      expect(await query('minecraft', '127.0.0.1', mc.port)).toMatchObject({ status: 'Online', players: 1 });
      expect(reads[0]).toBeGreaterThan(0);
      expect(reads[0]).toBeLessThan(GAME_QUERY_MAX_BYTES);
    } finally {
      await mc.close();
    }
  });
});

describe.each(databases)('the list while a hostile server is being asked (%s)', (kind) => {
  const s = useTestServer(kind, { GAME_HOST: '127.0.0.1' });

  it('answers at once with the stored answer; the query runs in the background and stores Offline', async () => {
    const tcp = await startEndlessTcp();
    hostiles.push(tcp);
    const { query, reads } = counted();
    setGameQuery(s.deps, query);
    const admin = callerFor(s.deps, await createUser(s.deps, 'boss', 3));
    // A server that answered before (the stored answer), whose 30 s have passed.
    const [row] = await s.db.insertInto('game_servers').values({ port: tcp.port, description: 'Griefers', game: 'minecraft' }).returning('id').execute();
    const id = row?.id ?? 0;
    await claim(s.db, [id]);
    await saveSnapshot(s.db, id, { status: 'Online', players: 3, maxPlayers: 20, playerNames: ['a'], map: null, version: '1.21', pingMs: 5 }, true);
    await sql`update game_server_status set claimed_at = claimed_at - interval '31 seconds', queried_at = queried_at - interval '31 seconds'`.execute(s.db);

    const [listed] = await admin.gameServers.list();
    // The stored answer, while the query has not finished (it has read nothing to the end yet).
    expect(listed).toMatchObject({ id, status: 'Online', players: { online: 3, max: 20 } });
    expect(reads).toEqual([]);

    await queriesSettled(s.deps);
    expect(tcp.connections()).toBeGreaterThanOrEqual(1);
    expect(reads[0]).toBeLessThanOrEqual(GAME_QUERY_MAX_BYTES + SLACK);
    const [after] = await admin.gameServers.list();
    expect(after).toMatchObject({ id, status: 'Offline', players: null });
  });
});
