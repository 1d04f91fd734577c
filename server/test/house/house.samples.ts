import { expect } from 'vitest';
import type { houseRoutes } from '@site/contracts';
import { houseMessages } from '@site/contracts';
import { cookieFor, postJson } from '../helpers.ts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const houseSamples = {
  'house.list': undefined,
  // With a client id, as the offline queue sends it: the backup drill then finds a row in client_changes.
  'house.add': { task: 'Light bulbs', type: 'To Get', clientId: '5b0b8f7e-7c1d-4c8e-9a3f-2f1e0d9c8b7a' },
  // No task 1 exists: a NOT_FOUND answer is not a refusal.
  'house.complete': { id: 1 },
  'house.undo': { id: 1 },
  'house.addIngredients': { lines: [{ name: 'egg', pluralName: 'eggs', quantity: 2, unit: null }], system: 'as-written' },
} satisfies AreaSamples<typeof houseRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const houseParity = {
  async '/api/todo/house/get'(s) {
    const cookie = await cookieFor(s.deps, 2);
    await postJson(s.app, '/api/todo/house/add', { task: 'Milk', type: 'To Get' }, cookie);
    const res = await postJson(s.app, '/api/todo/house/get');
    expect(res.json()).toEqual([{ id: expect.any(Number), task: 'Milk', status: 'To Get' }]);
  },
  async '/api/todo/house/add'(s) {
    const cookie = await cookieFor(s.deps, 2);
    const res = await postJson(s.app, '/api/todo/house/add', { task: 'Fix the tap', type: 'To Do' }, cookie);
    expect(res.json()).toEqual({ id: expect.any(Number), task: 'Fix the tap', status: 'To Do' });
    const bad = await postJson(s.app, '/api/todo/house/add', { task: 'x', type: 'To Sell' }, cookie);
    expect([bad.statusCode, bad.json()]).toEqual([400, { message: `type: ${houseMessages.badType}` }]);
  },
  async '/api/todo/house/complete'(s) {
    const cookie = await cookieFor(s.deps, 2);
    const { id } = (await postJson(s.app, '/api/todo/house/add', { task: 'Mow', type: 'To Do' }, cookie)).json();
    const res = await postJson(s.app, '/api/todo/house/complete', { id: String(id) }, cookie);
    expect(res.json()).toEqual({ id, task: 'Mow', status: 'Complete' });
    const again = await postJson(s.app, '/api/todo/house/complete', { id }, cookie);
    expect([again.statusCode, again.json()]).toEqual([409, { message: houseMessages.alreadyComplete }]);
  },
} satisfies AreaParity<typeof houseRoutes>;
