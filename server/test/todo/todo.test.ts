import { describe, expect, it } from 'vitest';
import { TODO_TASK_MAX, todoMessages } from '@site/contracts';
import { callerFor, cookieFor, createUser, databases, postJson, useTestServer } from '../helpers.ts';

describe.each(databases)('todo (%s)', (kind) => {
  const s = useTestServer(kind);

  it('keeps each member to their own list, in the spec order, Complete and Completed stored as one', async () => {
    const amy = callerFor(s.deps, await createUser(s.deps, 'amy', 1));
    const ids: number[] = [];
    for (const task of ['a', 'b', 'c', 'd', 'e']) ids.push((await amy.todo.add({ task })).id);
    const [a, b, c, d] = ids as [number, number, number, number, number];
    await amy.todo.update({ id: a, status: 'ABANDONED' });
    await amy.todo.update({ id: b, status: 'Complete' });
    await amy.todo.update({ id: c, status: 'completed' });
    await amy.todo.update({ id: d, status: 'inactive' });
    expect((await amy.todo.list()).map((t) => [t.task, t.status])).toEqual([
      ['e', 'Active'],
      ['d', 'Inactive'],
      ['b', 'Completed'],
      ['c', 'Completed'],
      ['a', 'Abandoned'],
    ]);
    const bob = callerFor(s.deps, await createUser(s.deps, 'bob', 2));
    expect(await bob.todo.list()).toEqual([]);
  });

  it("answers someone else's task exactly as a missing one, and changes nothing", async () => {
    const amy = callerFor(s.deps, await createUser(s.deps, 'amy', 1));
    const bob = callerFor(s.deps, await createUser(s.deps, 'bob', 3));
    const task = await amy.todo.add({ task: 'private' });
    for (const status of ['Complete', 'Delete']) {
      await expect(bob.todo.update({ id: task.id, status })).rejects.toMatchObject({ code: 'NOT_FOUND', message: todoMessages.notFound });
      await expect(bob.todo.update({ id: 99999, status })).rejects.toMatchObject({ code: 'NOT_FOUND', message: todoMessages.notFound });
    }
    expect(await amy.todo.list()).toEqual([task]);
  });

  it('deletes for good, and edits the text when given', async () => {
    const amy = callerFor(s.deps, await createUser(s.deps, 'amy', 1));
    const task = await amy.todo.add({ task: 'old' });
    expect(await amy.todo.update({ id: task.id, status: 'Inactive', task: ' new ' })).toEqual({ id: task.id, task: 'new', status: 'Inactive' });
    await amy.todo.update({ id: task.id, status: 'delete' });
    expect(await amy.todo.list()).toEqual([]);
    await expect(amy.todo.update({ id: task.id, status: 'Active' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses bad input over /api with a readable 400 and writes nothing', async () => {
    const cookie = await cookieFor(s.deps, 1);
    const cases: [string, unknown, string][] = [
      ['/api/todo/add', {}, 'task: Task must be text'],
      ['/api/todo/add', { task: '' }, 'Task may not be empty'],
      ['/api/todo/add', { task: 'x'.repeat(TODO_TASK_MAX + 1) }, `Task may be at most ${TODO_TASK_MAX} characters`],
      ['/api/todo/add', { task: 'a\u0000b' }, 'Task may not contain control characters'],
      ['/api/todo/update', { id: 'x', status: 'Active' }, `id: ${todoMessages.badId}`],
      ['/api/todo/update', { id: 1, status: 'Finished' }, 'Finished is not a valid status.'],
      ['/api/todo/update', { id: 1, status: 'Active', task: '' }, 'Task may not be empty'],
    ];
    for (const [url, body, message] of cases) {
      const res = await postJson(s.app, url, body, cookie);
      expect([url, res.statusCode, res.json()]).toEqual([url, 400, { message }]);
    }
    expect((await postJson(s.app, '/api/todo/get', undefined, cookie)).json()).toEqual([]);
  });

  it('refuses pending accounts and visitors', async () => {
    expect((await postJson(s.app, '/api/todo/get')).statusCode).toBe(401);
    expect((await postJson(s.app, '/api/todo/get', undefined, await cookieFor(s.deps, 0))).statusCode).toBe(403);
  });
});
