import { expect } from 'vitest';
import type { adminRoutes } from '@site/contracts';
import { adminMessages } from '@site/contracts';
import { cookieFor, createUser, postJson } from '../helpers.ts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const adminSamples = {
  'admin.users': undefined,
  'admin.setLevel': { name: 'viewer3', level: 3 },
  'admin.resetLink': { name: 'existing' },
  'admin.waitingCount': undefined,
} satisfies AreaSamples<typeof adminRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const adminParity = {
  async '/api/admin/users'(s) {
    const cookie = await cookieFor(s.deps, 3, 'boss');
    await createUser(s.deps, 'Amy', 1);
    await createUser(s.deps, 'carl', 0);
    const res = await postJson(s.app, '/api/admin/users', undefined, cookie);
    expect(res.json()).toEqual([
      { name: 'Amy', authentication: 1 },
      { name: 'boss', authentication: 3 },
      { name: 'carl', authentication: 0 },
    ]);
  },
  async '/api/admin/set_user_auth'(s) {
    const cookie = await cookieFor(s.deps, 3, 'boss');
    await createUser(s.deps, 'Amy', 0);
    for (const authlevel of [2, '1']) {
      const res = await postJson(s.app, '/api/admin/set_user_auth', { username: 'Amy', authlevel }, cookie);
      expect(res.json()).toEqual({ name: 'Amy', authentication: Number(authlevel) });
    }
    const bad = await postJson(s.app, '/api/admin/set_user_auth', { username: 'Amy', authlevel: 4 }, cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^level: /);
    const ghost = await postJson(s.app, '/api/admin/set_user_auth', { username: 'ghost', authlevel: 1 }, cookie);
    expect([ghost.statusCode, ghost.json()]).toEqual([404, { message: adminMessages.unknownUser }]);
    const self = await postJson(s.app, '/api/admin/set_user_auth', { username: 'boss', authlevel: 1 }, cookie);
    expect([self.statusCode, self.json()]).toEqual([400, { message: adminMessages.lastAdmin }]);
  },
} satisfies AreaParity<typeof adminRoutes>;
