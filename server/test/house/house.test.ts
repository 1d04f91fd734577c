import { beforeEach, describe, expect, it } from 'vitest';
import { insertKitchenUnits } from '../../src/areas/recipes/recipes.migrations.ts';
import { HOUSE_TASK_MAX, houseIngredientMessages, houseMessages } from '@site/contracts';
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

describe.each(databases)('house details, recently done and repeating tasks (%s)', (kind) => {
  const s = useTestServer(kind);
  const HOUR = 3600_000;
  /** Moves a task's completion back in time, as if it had been completed that long ago. */
  const completedAgo = (id: number, ms: number) =>
    s.deps.db.updateTable('house_tasks').set({ completed_at: new Date(Date.now() - ms) }).where('id', '=', id).execute();

  it('keeps quantity and note, and the /api paths answer exactly the old fields', async () => {
    const family = callerFor(s.deps, await createUser(s.deps, 'fam', 2));
    const eggs = await family.house.add({ task: 'Eggs', type: 'To Get', quantity: ' 12 ', note: 'Free range please' });
    expect(eggs).toMatchObject({ task: 'Eggs', type: 'To Get', quantity: '12', note: 'Free range please', repeatDays: null, completedAt: null });
    await family.house.add({ task: 'Bread', type: 'To Get', quantity: '', note: '' });
    expect((await family.house.list()).map((t) => [t.task, t.quantity, t.note])).toEqual([
      ['Eggs', '12', 'Free range please'],
      ['Bread', null, null],
    ]);
    const cookie = await cookieFor(s.deps, 2);
    // An old client's add carries no quantity; extra fields it might send are not part of its path.
    const added = await postJson(s.app, '/api/todo/house/add', { task: 'Milk', type: 'To Get', quantity: '2' }, cookie);
    expect(added.json()).toEqual({ id: expect.any(Number), task: 'Milk', status: 'To Get' });
    await postJson(s.app, '/api/todo/house/complete', { id: eggs.id }, cookie);
    expect((await postJson(s.app, '/api/todo/house/get')).json()).toEqual([
      { id: expect.any(Number), task: 'Bread', status: 'To Get' },
      { id: added.json().id, task: 'Milk', status: 'To Get' },
      { id: eggs.id, task: 'Eggs', status: 'Complete' },
    ]);
  });

  it('completes into "Recently done", undoes within 24 hours, refuses after', async () => {
    const family = callerFor(s.deps, await createUser(s.deps, 'fam', 2));
    const milk = await family.house.add({ task: 'Milk', type: 'To Get', quantity: '2 l' });
    const done = await family.house.complete({ id: milk.id });
    expect(done.status).toBe('Complete');
    expect(Date.now() - Date.parse(done.completedAt!)).toBeLessThan(HOUR);
    const back = await family.house.undo({ id: milk.id });
    expect(back).toMatchObject({ status: 'To Get', type: 'To Get', quantity: '2 l', completedAt: null });
    await expect(family.house.undo({ id: milk.id })).rejects.toThrow(houseMessages.notComplete);
    await family.house.complete({ id: milk.id });
    await completedAgo(milk.id, 25 * HOUR);
    await expect(family.house.undo({ id: milk.id })).rejects.toThrow(houseMessages.undoTooLate);
    expect((await family.house.list()).find((t) => t.id === milk.id)?.status).toBe('Complete');
  });

  it('a repeating To Do adds its next occurrence, due N days after completion; Undo takes it back', async () => {
    const family = callerFor(s.deps, await createUser(s.deps, 'fam', 2));
    const bins = await family.house.add({ task: 'Clean the bins', type: 'To Do', repeatDays: 7, note: 'Both of them' });
    const before = Date.now();
    await family.house.complete({ id: bins.id });
    const open = (await family.house.list()).filter((t) => t.status === 'To Do');
    expect(open).toHaveLength(1);
    const next = open[0]!;
    expect(next).toMatchObject({ task: 'Clean the bins', repeatDays: 7, note: 'Both of them' });
    const due = Date.parse(next.dueAt!) - before;
    expect(due).toBeGreaterThanOrEqual(7 * 24 * HOUR);
    expect(due).toBeLessThan(7 * 24 * HOUR + HOUR);
    await family.house.undo({ id: bins.id });
    expect((await family.house.list()).map((t) => [t.id, t.status, t.dueAt])).toEqual([[bins.id, 'To Do', null]]);
  });

  it('refuses a bad repeat or an undo of nothing readably, writing nothing', async () => {
    const family = callerFor(s.deps, await createUser(s.deps, 'fam', 2));
    const open = await family.house.add({ task: 'Mow', type: 'To Do' });
    for (const [input, message] of [
      [{ task: 'Milk', type: 'To Get', repeatDays: 7 }, houseMessages.repeatOnlyToDo],
      [{ task: 'Mow', type: 'To Do', repeatDays: 0 }, houseMessages.badRepeat],
      [{ task: 'Mow', type: 'To Do', repeatDays: 1.5 }, houseMessages.badRepeat],
      [{ task: 'Mow', type: 'To Do', repeatDays: 366 }, houseMessages.badRepeat],
      [{ task: 'Mow', type: 'To Do', quantity: 'x'.repeat(51) }, 'Quantity may be at most 50 characters'],
    ] as const) {
      await expect(family.house.add(input as never)).rejects.toThrow(message);
    }
    await expect(family.house.undo({ id: open.id })).rejects.toThrow(houseMessages.notComplete);
    await expect(family.house.undo({ id: 12345 })).rejects.toThrow(houseMessages.notFound);
    const friend = await cookieFor(s.deps, 1, 'friend');
    await family.house.complete({ id: open.id });
    const refused = await s.app.inject({ method: 'POST', url: '/trpc/house.undo', payload: { id: open.id }, headers: { cookie: friend, 'content-type': 'application/json' } });
    expect(refused.statusCode).toBe(403);
    expect((await family.house.list()).map((t) => [t.task, t.status])).toEqual([['Mow', 'Complete']]);
  });
});

describe.each(databases)('recipe ingredients onto House To Get (%s)', (kind) => {
  const s = useTestServer(kind);
  // The unit dictionary the recipes migration ships (the test server starts each test empty).
  beforeEach(() => insertKitchenUnits(s.db));
  const line = (name: string, pluralName: string, quantity: number | null, unit: string | null) => ({ name, pluralName, quantity, unit });

  it('merges into the same ingredient when the units add up, else adds a line; never duplicates', async () => {
    const family = callerFor(s.deps, await createUser(s.deps, 'fam', 2));
    const eggs = await family.house.add({ task: 'Eggs', type: 'To Get', quantity: '2' });
    const flour = await family.house.add({ task: 'flour', type: 'To Get', quantity: '200 g' });
    await family.house.add({ task: 'Eggs', type: 'To Do' });
    const result = await family.house.addIngredients({
      lines: [line('egg', 'eggs', 3, null), line('flour', 'flour', 0.5, 'kg'), line('flour', 'flour', 1, 'cup'), line('salt', 'salt', null, null)],
      system: 'as-written',
    });
    expect(result).toEqual({ added: 2, merged: 2 });
    const toGet = (await family.house.list()).filter((t) => t.status === 'To Get');
    expect(toGet.map((t) => [t.id, t.task, t.quantity])).toEqual([
      [eggs.id, 'Eggs', '5'],
      [flour.id, 'flour', '700 g'],
      [expect.any(Number), 'flour', '1 cup'],
      [expect.any(Number), 'salt', null],
    ]);
    await family.house.addIngredients({ lines: [line('salt', 'salt', null, null), line('Egg', 'Eggs', 1, null)], system: 'metric' });
    expect((await family.house.list()).filter((t) => t.status === 'To Get').map((t) => [t.task, t.quantity])).toEqual([
      ['Eggs', '6'],
      ['flour', '700 g'],
      ['flour', '1 cup'],
      ['salt', null],
    ]);
  });

  it('needs level 2 and refuses bad input readably, writing nothing', async () => {
    const ok = { lines: [line('egg', 'eggs', 2, null)], system: 'metric' };
    for (const [cookie, status] of [[undefined, 401], [await cookieFor(s.deps, 1, 'friend'), 403]] as const) {
      const res = await s.app.inject({ method: 'POST', url: '/trpc/house.addIngredients', payload: ok, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) } });
      expect(res.statusCode).toBe(status);
    }
    const family = callerFor(s.deps, await createUser(s.deps, 'fam', 2));
    for (const [input, message] of [
      [{ lines: [], system: 'metric' }, houseIngredientMessages.none],
      [{ lines: Array.from({ length: 101 }, () => ok.lines[0]), system: 'metric' }, houseIngredientMessages.tooMany],
      [{ lines: [line('egg', 'eggs', -1, null)], system: 'metric' }, houseIngredientMessages.badQuantity],
      [{ lines: [line(' ', '', 1, null)], system: 'metric' }, 'Ingredient may not be empty'],
      [{ lines: ok.lines, system: 'imperial' }, houseIngredientMessages.badSystem],
    ] as const) {
      await expect(family.house.addIngredients(input as never)).rejects.toThrow(message);
    }
    expect(await family.house.list()).toEqual([]);
  });
});
