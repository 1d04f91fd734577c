import { expect } from 'vitest';
import type { todoRoutes } from '@site/contracts';
import { cookieFor, postJson } from '../helpers.ts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const todoSamples = {
  'todo.list': undefined,
  'todo.add': { task: 'Water the plants' },
  // No task 1 belongs to the caller: a NOT_FOUND answer is not a refusal.
  'todo.update': { id: 1, status: 'Complete' },
} satisfies AreaSamples<typeof todoRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const todoParity = {
  async '/api/todo/get'(s) {
    const cookie = await cookieFor(s.deps, 1);
    await postJson(s.app, '/api/todo/add', { task: 'one' }, cookie);
    const res = await postJson(s.app, '/api/todo/get', undefined, cookie);
    expect(res.json()).toEqual([{ id: expect.any(Number), task: 'one', status: 'Active' }]);
  },
  async '/api/todo/add'(s) {
    const cookie = await cookieFor(s.deps, 1);
    const res = await postJson(s.app, '/api/todo/add', { task: '  Buy milk ' }, cookie);
    expect(res.json()).toEqual({ id: expect.any(Number), task: 'Buy milk', status: 'Active' });
    const empty = await postJson(s.app, '/api/todo/add', { task: ' ' }, cookie);
    expect([empty.statusCode, empty.json()]).toEqual([400, { message: 'Task may not be empty' }]);
  },
  async '/api/todo/update'(s) {
    const cookie = await cookieFor(s.deps, 1);
    const { id } = (await postJson(s.app, '/api/todo/add', { task: 'one' }, cookie)).json();
    const res = await postJson(s.app, '/api/todo/update', { id: String(id), task: 'one!', status: 'complete' }, cookie);
    expect(res.json()).toEqual({ id, task: 'one!', status: 'Completed' });
    const bad = await postJson(s.app, '/api/todo/update', { id, task: 'one', status: 'Done' }, cookie);
    expect([bad.statusCode, bad.json()]).toEqual([400, { message: 'Done is not a valid status.' }]);
    const gone = await postJson(s.app, '/api/todo/update', { id, task: 'one', status: 'Delete' }, cookie);
    expect(gone.json()).toEqual({ id, task: 'one!', status: 'Deleted' });
    expect((await postJson(s.app, '/api/todo/get', undefined, cookie)).json()).toEqual([]);
  },
} satisfies AreaParity<typeof todoRoutes>;
