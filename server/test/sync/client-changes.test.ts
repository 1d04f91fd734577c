import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_HEADER, accessMessages, clientChangeMessages, houseMessages, todoMessages } from '@site/contracts';
import { CLIENT_CHANGE_KEEP_DAYS } from '../../src/client-changes/client-changes.ts';
import { cookieFor, databases, postJson, useTestServer } from '../helpers.ts';

/**
 * Changes sent with a client id (the offline queue's): each applies once per account however often it
 * is sent, concurrently too; what a queued change meets meanwhile is answered, not refused.
 */
describe.each(databases)('client change ids (%s)', (kind) => {
  const s = useTestServer(kind);
  /** A tRPC mutation through the real HTTP server: [status, data or error message]. */
  const trpc = async (procedure: string, input: unknown, cookie: string) => {
    const res = await postJson(s.app, `/trpc/${procedure}`, input, cookie);
    const body = res.json() as { result?: { data: unknown }; error?: { message: string } };
    return [res.statusCode, body.result ? body.result.data : body.error?.message] as const;
  };
  const houseRows = (task: string) => s.deps.db.selectFrom('house_tasks').selectAll().where('task', '=', task).execute();
  const changeRows = () => s.deps.db.selectFrom('client_changes').selectAll().execute();

  it("applies a queued change only under the session of the account that made it (the queue's header)", async () => {
    const alice = await cookieFor(s.deps, 1, 'Alice');
    const bob = await cookieFor(s.deps, 1, 'bob');
    const send = (cookie: string, account: string, task: string) =>
      s.app.inject({
        method: 'POST',
        url: '/trpc/todo.add',
        headers: { cookie, 'content-type': 'application/json', [ACCOUNT_HEADER]: encodeURIComponent(account) },
        payload: JSON.stringify({ task, clientId: randomUUID() }),
      });
    // Alice's change, sent while Bob's session is the browser's: refused, nothing written.
    const refused = await send(bob, 'alice', 'Alice private');
    expect([refused.statusCode, (refused.json() as { error: { message: string } }).error.message]).toEqual([412, accessMessages.otherAccount]);
    expect(await send(bob, '%E0%A4%A', 'Garbled')).toMatchObject({ statusCode: 412 });
    expect(await s.deps.db.selectFrom('todo_tasks').selectAll().execute()).toEqual([]);
    // Under her own session it applies (names compare ignoring case), and so does a call without the header.
    expect((await send(alice, 'alice', 'Alice private')).statusCode).toBe(200);
    expect((await trpc('todo.add', { task: 'Bob own' }, bob))[0]).toBe(200);
    expect((await s.deps.db.selectFrom('todo_tasks').select('task').orderBy('id').execute()).map((r) => r.task)).toEqual(['Alice private', 'Bob own']);
  });

  it('adds a house item once when the same change is sent twice, answering the same', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const clientId = randomUUID();
    const first = await trpc('house.add', { task: 'Milk', type: 'To Get', clientId }, cookie);
    const again = await trpc('house.add', { task: 'Milk', type: 'To Get', clientId }, cookie);
    expect(first[0]).toBe(200);
    expect(again).toEqual(first);
    expect(await houseRows('Milk')).toHaveLength(1);
    expect(await changeRows()).toMatchObject([{ client_id: clientId, procedure: 'house.add' }]);
  });

  it('applies concurrent sendings of one id once', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const clientId = randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => trpc('house.add', { task: 'Bread', type: 'To Get', clientId }, cookie)));
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(await houseRows('Bread')).toHaveLength(1);
    const todoCookie = await cookieFor(s.deps, 1);
    const todoId = randomUUID();
    await Promise.all([1, 2].map(() => trpc('todo.add', { task: 'Call the bank', clientId: todoId }, todoCookie)));
    expect(await s.deps.db.selectFrom('todo_tasks').selectAll().where('task', '=', 'Call the bank').execute()).toHaveLength(1);
  });

  it("keeps accounts apart: another account's use of an id applies its own change and never sees the first answer", async () => {
    const alice = await cookieFor(s.deps, 2, 'alice');
    const bob = await cookieFor(s.deps, 2, 'bob');
    const clientId = randomUUID();
    const [, a] = await trpc('house.add', { task: 'Eggs', type: 'To Get', clientId }, alice);
    const [, b] = await trpc('house.add', { task: 'Soap', type: 'To Get', clientId }, bob);
    expect(b).toMatchObject({ task: 'Soap' });
    expect((b as { id: number }).id).not.toBe((a as { id: number }).id);
    // One id, one change: the same account using it for another procedure is refused.
    expect(await trpc('todo.add', { task: 'Private', clientId }, alice)).toEqual([409, clientChangeMessages.reused]);
    expect(await trpc('house.complete', { id: (a as { id: number }).id, clientId }, alice)).toEqual([409, clientChangeMessages.reused]);
  });

  it('refuses a malformed id and writes nothing; a refused change may be sent again', async () => {
    const cookie = await cookieFor(s.deps, 2);
    expect(await trpc('house.add', { task: 'Milk', type: 'To Get', clientId: 'not-a-uuid' }, cookie)).toEqual([400, `clientId: ${clientChangeMessages.badClientId}`]);
    const clientId = randomUUID();
    expect(await trpc('house.complete', { id: 999, clientId }, cookie)).toEqual([404, houseMessages.notFound]);
    expect(await changeRows()).toEqual([]);
    expect(await houseRows('Milk')).toEqual([]);
  });

  it('answers a queued completion of an item completed meanwhile with the completed item, once', async () => {
    const alice = await cookieFor(s.deps, 2, 'alice');
    const bob = await cookieFor(s.deps, 2, 'bob');
    const [, milk] = await trpc('house.add', { task: 'Milk', type: 'To Get' }, alice);
    const { id } = milk as { id: number };
    expect((await trpc('house.complete', { id }, bob))[0]).toBe(200);
    const clientId = randomUUID();
    const [status, done] = await trpc('house.complete', { id, clientId }, alice);
    expect([status, done]).toEqual([200, expect.objectContaining({ id, status: 'Complete', conflict: 'alreadyComplete', byOther: true })]);
    expect(await trpc('house.complete', { id, clientId }, alice)).toEqual([200, done]);
    // Undo sent after someone else put it back: it stays open, once.
    const [, undone] = await trpc('house.undo', { id, clientId: randomUUID() }, bob);
    expect(undone).toMatchObject({ status: 'To Get' });
    expect(await trpc('house.undo', { id, clientId: randomUUID() }, alice)).toEqual([200, expect.objectContaining({ status: 'To Get', conflict: 'alreadyOpen' })]);
    expect(await houseRows('Milk')).toHaveLength(1);
    // Without a client id (the old paths, an online click) a second completion is refused as before.
    await trpc('house.complete', { id }, alice);
    expect(await trpc('house.complete', { id }, bob)).toEqual([409, houseMessages.alreadyComplete]);
    const legacy = await postJson(s.app, '/api/todo/house/complete', { id }, bob);
    expect([legacy.statusCode, legacy.json()]).toEqual([409, { message: houseMessages.alreadyComplete }]);
  });

  it('keeps both of two adds of one name, and says so', async () => {
    const alice = await cookieFor(s.deps, 2, 'alice');
    const bob = await cookieFor(s.deps, 2, 'bob');
    await trpc('house.add', { task: 'Milk', type: 'To Get' }, bob);
    expect(await trpc('house.add', { task: 'milk', type: 'To Get', clientId: randomUUID() }, alice)).toEqual([200, expect.objectContaining({ task: 'milk', conflict: 'alsoOnList' })]);
    expect(await trpc('house.add', { task: 'Milk', type: 'To Do', clientId: randomUUID() }, alice)).toEqual([200, expect.not.objectContaining({ conflict: expect.anything() })]);
  });

  it('applies a Todo status change made on a task changed meanwhile (last write wins) and says what it was', async () => {
    const cookie = await cookieFor(s.deps, 1);
    const [, task] = await trpc('todo.add', { task: 'Call the bank' }, cookie);
    const { id } = task as { id: number };
    await trpc('todo.update', { id, status: 'Inactive' }, cookie);
    const clientId = randomUUID();
    const first = await trpc('todo.update', { id, task: 'Call the bank', status: 'Complete', seen: 'Active', clientId }, cookie);
    expect(first).toEqual([200, { id, task: 'Call the bank', status: 'Completed', was: 'Inactive' }]);
    await trpc('todo.update', { id, status: 'Active' }, cookie);
    // Sent again (a lost answer): the same answer, and the later change stands.
    expect(await trpc('todo.update', { id, task: 'Call the bank', status: 'Complete', seen: 'Active', clientId }, cookie)).toEqual(first);
    expect(await s.deps.db.selectFrom('todo_tasks').select('status').where('id', '=', id).executeTakeFirst()).toEqual({ status: 'Active' });
    expect(await trpc('todo.update', { id, status: 'Abandoned', seen: 'Active', clientId: randomUUID() }, cookie)).toEqual([200, { id, task: 'Call the bank', status: 'Abandoned' }]);
    // Deleted meanwhile: refused, so the member is told.
    await trpc('todo.update', { id, status: 'Delete' }, cookie);
    expect(await trpc('todo.update', { id, status: 'Complete', seen: 'Active', clientId: randomUUID() }, cookie)).toEqual([404, todoMessages.notFound]);
  });

  it(`forgets an account's ids after ${CLIENT_CHANGE_KEEP_DAYS} days`, async () => {
    const cookie = await cookieFor(s.deps, 1);
    const old = randomUUID();
    await trpc('todo.add', { task: 'old', clientId: old }, cookie);
    await s.deps.db.updateTable('client_changes').set({ created_at: new Date(Date.now() - (CLIENT_CHANGE_KEEP_DAYS + 1) * 24 * 3600_000) }).execute();
    await trpc('todo.add', { task: 'new', clientId: randomUUID() }, cookie);
    expect((await changeRows()).map((r) => r.client_id)).not.toContain(old);
    expect(await changeRows()).toHaveLength(1);
  });
});
