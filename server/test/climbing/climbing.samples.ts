import { expect } from 'vitest';
import type { climbingRoutes } from '@site/contracts';
import { cookieFor, postJson } from '../helpers.ts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const climbingSamples = {
  'climbing.list': undefined,
  'climbing.add': { guest: 'Sam' },
  // No pass 1 exists: a NOT_FOUND answer is not a refusal.
  'climbing.remove': { id: 1 },
} satisfies AreaSamples<typeof climbingRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const climbingParity = {
  async '/api/climbing/get'(s) {
    const cookie = await cookieFor(s.deps, 2);
    await postJson(s.app, '/api/climbing/add', { guest: 'Sam' }, cookie);
    const res = await postJson(s.app, '/api/climbing/get', undefined, cookie);
    expect(res.json()).toEqual({
      guests: [{ id: expect.any(Number), guest: 'Sam', addedBy: 'user2', addedAt: expect.any(String), canRemove: true }],
    });
  },
  async '/api/climbing/add'(s) {
    const cookie = await cookieFor(s.deps, 2);
    const res = await postJson(s.app, '/api/climbing/add', { guest: ' Sam ' }, cookie);
    expect(res.json()).toMatchObject({ guest: 'Sam' });
    const bad = await postJson(s.app, '/api/climbing/add', { guest: '' }, cookie);
    expect([bad.statusCode, bad.json()]).toEqual([400, { message: 'Guest may not be empty' }]);
  },
} satisfies AreaParity<typeof climbingRoutes>;
