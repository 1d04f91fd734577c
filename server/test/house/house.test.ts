import { describe, expect, it } from 'vitest';
import { HOUSE_TASK_MAX, houseMessages } from '@site/contracts';
import { callerFor, cookieFor, createUser, databases, postJson, useTestServer } from '../helpers.ts';

describe.each(databases)('house list (%s)', (kind) => {
  const s = useTestServer(kind);

  it('lists To Do, To Get, then Complete, oldest first, to anyone', async () => {
    const family = callerFor(s.deps, await createUser(s.deps, 'fam', 2));
    await family.house.add({ task: 'milk', type: 'To Get' });
    const mow = await family.house.add({ task: 'mow', type: 'To Do' });
    await family.house.add({ task: 'bread', type: 'To Get' });
    await family.house.add({ task: 'paint', type: 'To Do' });
    await family.house.complete({ id: mow.id });
    const anonymous = callerFor(s.deps, null);
    expect((await anonymous.house.list()).map((t) => [t.task, t.status])).toEqual([
      ['paint', 'To Do'],
      ['milk', 'To Get'],
      ['bread', 'To Get'],
      ['mow', 'Complete'],
    ]);
  });

  it('lets anonymous and levels 0-1 read, and refuses them every write', async () => {
    const family = await cookieFor(s.deps, 2, 'fam');
    const { id } = (await postJson(s.app, '/api/todo/house/add', { task: 'mow', type: 'To Do' }, family)).json();
    for (const [cookie, status] of [[undefined, 401], [await cookieFor(s.deps, 0), 403], [await cookieFor(s.deps, 1), 403]] as const) {
      expect((await postJson(s.app, '/api/todo/house/get', undefined, cookie)).statusCode).toBe(200);
      expect((await postJson(s.app, '/api/todo/house/add', { task: 'x', type: 'To Do' }, cookie)).statusCode).toBe(status);
      expect((await postJson(s.app, '/api/todo/house/complete', { id }, cookie)).statusCode).toBe(status);
    }
    expect((await postJson(s.app, '/api/todo/house/get')).json()).toEqual([{ id, task: 'mow', status: 'To Do' }]);
  });

  it('answers an unknown task and bad input readably, writing nothing', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const cases: [string, unknown, number, string][] = [
      ['/api/todo/house/complete', { id: 12345 }, 404, houseMessages.notFound],
      ['/api/todo/house/complete', { id: 'abc' }, 400, `id: ${houseMessages.badId}`],
      ['/api/todo/house/add', { task: '  ', type: 'To Do' }, 400, 'Task may not be empty'],
      ['/api/todo/house/add', { task: 'x'.repeat(HOUSE_TASK_MAX + 1), type: 'To Do' }, 400, `Task may be at most ${HOUSE_TASK_MAX} characters`],
      ['/api/todo/house/add', { task: 'x' }, 400, `type: ${houseMessages.badType}`],
    ];
    for (const [url, body, status, message] of cases) {
      const res = await postJson(s.app, url, body, cookie);
      expect([url, res.statusCode, res.json()]).toEqual([url, status, { message }]);
    }
    expect((await postJson(s.app, '/api/todo/house/get')).json()).toEqual([]);
  });
});
