import { expect } from 'vitest';
import type { gameServersRoutes } from '@site/contracts';
import { callerFor, cookieFor, createUser, postJson } from '../helpers.ts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const gameServersSamples = {
  'gameServers.list': undefined,
  'gameServers.add': { port: 25565, description: 'Minecraft' },
  // No server 1 exists: a NOT_FOUND answer is not a refusal.
  'gameServers.update': { id: 1, port: 25566, description: 'Minecraft' },
  'gameServers.remove': { id: 1 },
} satisfies AreaSamples<typeof gameServersRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const gameServersParity = {
  async '/api/game-servers/get'(s) {
    const admin = callerFor(s.deps, await createUser(s.deps, 'boss', 3));
    await admin.gameServers.add({ port: 1, description: 'Nothing listens here' });
    const res = await postJson(s.app, '/api/game-servers/get', undefined, await cookieFor(s.deps, 1));
    expect(res.json()).toEqual([{ status: expect.stringMatching(/^(Online|Offline|Unknown)$/), port: 1, description: 'Nothing listens here' }]);
  },
} satisfies AreaParity<typeof gameServersRoutes>;
