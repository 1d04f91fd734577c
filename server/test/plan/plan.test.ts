import { describe, expect, it } from 'vitest';
import { addDays, choreMessages, mondayOf, planMessages, todayIn, type RecipeInput } from '@site/contracts';
import { callerFor, cookieFor, createUser, databases, type TestServer } from '../helpers.ts';
import { usePlanServer, ZONE } from './plan-server.ts';

/** A recipe for `servings` with the given ingredients in one step. */
const recipe = (title: string, servings: number, ingredients: { name: string; plural_name?: string; quantity: number | null; unit_abbreviation: string | null }[]): RecipeInput => ({
  title,
  servings,
  steps: [{ instructions: 'Cook.', ingredients: ingredients.map((i) => ({ plural_name: '', ...i })) }],
});

/** Calls a procedure over HTTP as /trpc does (GET for queries with ?input=, POST for mutations). */
async function trpcCall(s: TestServer, path: string, kind: 'query' | 'mutation', input: unknown, cookie?: string) {
  const headers = { ...(cookie ? { cookie } : {}), 'content-type': 'application/json' };
  const res =
    kind === 'query'
      ? await s.app.inject({ method: 'GET', url: `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, headers })
      : await s.app.inject({ method: 'POST', url: `/trpc/${path}`, payload: JSON.stringify(input ?? {}), headers });
  return res.statusCode;
}

describe.each(databases)('meal plan (%s)', (kind) => {
  const s = usePlanServer(kind);
  const start = mondayOf(todayIn(ZONE));

  it('plans a week of recipes and texts, clears, copies last week and applies a template', async () => {
    const anna = callerFor(s.deps, await createUser(s.deps, 'Anna', 2));
    const ben = callerFor(s.deps, await createUser(s.deps, 'Ben', 3));
    const { recipe_id } = await ben.recipes.create(recipe('Lasagne', 4, [{ name: 'pasta sheet', plural_name: 'pasta sheets', quantity: 12, unit_abbreviation: null }]));
    expect(await anna.plan.set({ date: addDays(start, 1), meal: 'dinner', recipeId: recipe_id, cook: 'ben', servings: 6 })).toEqual({
      meal: 'Dinner',
      recipeId: recipe_id,
      title: 'Lasagne',
      text: null,
      cook: 'Ben',
      servings: 6,
    });
    await anna.plan.set({ date: addDays(start, 4), meal: 'Lunch', text: ' Leftovers ' });
    const week = await anna.plan.week({ start });
    expect(week.meals.map((m) => m.name)).toEqual(['Breakfast', 'Lunch', 'Dinner']);
    expect(week.today).toBe(todayIn(ZONE));
    expect(week.days.map((d) => [d.date, d.slots.map((x) => [x.meal, x.title ?? x.text, x.cook])])).toEqual([
      [start, []],
      [addDays(start, 1), [['Dinner', 'Lasagne', 'Ben']]],
      [addDays(start, 2), []],
      [addDays(start, 3), []],
      [addDays(start, 4), [['Lunch', 'Leftovers', null]]],
      [addDays(start, 5), []],
      [addDays(start, 6), []],
    ]);

    const next = addDays(start, 7);
    expect(await anna.plan.copyLastWeek({ start: next })).toEqual({ copied: 2 });
    const template = await anna.plan.saveTemplate({ start, name: 'Usual week' });
    expect(template).toEqual({ id: expect.any(Number), name: 'Usual week', slots: 2 });
    expect(await anna.plan.templates()).toEqual([template]);
    await anna.plan.clear({ date: addDays(next, 1), meal: 'Dinner' });
    expect((await anna.plan.week({ start: next })).days.flatMap((d) => d.slots.map((x) => x.text ?? x.title))).toEqual(['Leftovers']);
    expect(await anna.plan.applyTemplate({ id: template.id, start: next })).toEqual({ copied: 2 });
    expect((await anna.plan.week({ start: next })).days.flatMap((d) => d.slots.map((x) => `${d.date} ${x.meal} ${x.title ?? x.text}`))).toEqual([
      `${addDays(next, 1)} Dinner Lasagne`,
      `${addDays(next, 4)} Lunch Leftovers`,
    ]);
  });

  it('refuses what is not a plan, readably, writing nothing', async () => {
    const anna = callerFor(s.deps, await createUser(s.deps, 'Anna', 2));
    await expect(anna.plan.week({ start: addDays(start, 1) })).rejects.toThrow(planMessages.notMonday);
    await expect(anna.plan.week({ start: '2026-02-30' })).rejects.toThrow(planMessages.badDate);
    await expect(anna.plan.set({ date: start, meal: 'Supper', text: 'Soup' })).rejects.toThrow(planMessages.unknownMeal('Supper'));
    await expect(anna.plan.set({ date: start, meal: 'Dinner', text: 'Soup', cook: 'Zed' })).rejects.toThrow(planMessages.noMember('Zed'));
    await expect(anna.plan.set({ date: start, meal: 'Dinner' })).rejects.toThrow(planMessages.emptySlot);
    await expect(anna.plan.set({ date: start, meal: 'Dinner', recipeId: 77 })).rejects.toThrow(planMessages.unknownRecipe);
    await expect(anna.plan.clear({ date: start, meal: 'Dinner' })).rejects.toThrow(planMessages.noSlot);
    await expect(anna.plan.applyTemplate({ id: 5, start })).rejects.toThrow(planMessages.noTemplate);
    await expect(anna.plan.shop({ start })).rejects.toThrow(planMessages.emptyWeek);
    expect((await anna.plan.week({ start })).days.flatMap((d) => d.slots)).toEqual([]);
  });

  it('lets the owner rename and add meals, keeping their slots', async () => {
    const owner = callerFor(s.deps, await createUser(s.deps, 'Owner', 3));
    await owner.plan.set({ date: start, meal: 'Dinner', text: 'Soup' });
    const meals = [
      { name: 'Breakfast', time: '07:30' },
      { name: 'Lunch', time: '12:00' },
      { name: 'Supper', time: '19:00' },
      { name: 'Snack', time: '21:00' },
    ];
    expect(await owner.plan.saveMeals({ meals, renamedFrom: [null, null, 'Dinner', null] })).toEqual(meals);
    expect((await owner.plan.week({ start })).days[0]!.slots.map((x) => [x.meal, x.text])).toEqual([['Supper', 'Soup']]);
    const family = callerFor(s.deps, await createUser(s.deps, 'Fam', 2));
    await expect(family.plan.saveMeals({ meals })).rejects.toThrow('Your account level does not allow this');
  });
});

describe.each(databases)('shopping the week (%s)', (kind) => {
  const s = usePlanServer(kind);
  const start = mondayOf(todayIn(ZONE));

  it('puts every ingredient, scaled to each slot, onto To Get merged in one unit, and a second press adds only what changed', async () => {
    const anna = callerFor(s.deps, await createUser(s.deps, 'Anna', 3));
    await anna.recipes.saveSettings({ defaultView: 'page', ingredientView: 'tiles-3', measurementSystem: 'american', improperFractions: false, decimals: false });
    const dressing = await anna.recipes.create(recipe('Salad', 2, [{ name: 'olive oil', quantity: 1, unit_abbreviation: 'tbsp' }, { name: 'lemon', plural_name: 'lemons', quantity: 1, unit_abbreviation: null }]));
    const pasta = await anna.recipes.create(recipe('Pasta', 4, [{ name: 'olive oil', quantity: 0.25, unit_abbreviation: 'cup' }, { name: 'egg', plural_name: 'eggs', quantity: 2, unit_abbreviation: null }, { name: 'salt', quantity: null, unit_abbreviation: null }]));
    // Salad for 4 (twice its 2 servings: 2 tbsp oil, 2 lemons), Pasta at its own 4 servings (1/4 cup oil), and a text.
    await anna.plan.set({ date: start, meal: 'Dinner', recipeId: dressing.recipe_id, servings: 4 });
    await anna.plan.set({ date: addDays(start, 2), meal: 'Lunch', recipeId: pasta.recipe_id });
    await anna.plan.set({ date: addDays(start, 3), meal: 'Dinner', text: 'Pizza out' });
    await anna.house.add({ task: 'Eggs', type: 'To Get', quantity: '3' });

    expect(await anna.plan.shop({ start })).toEqual({ added: 3, merged: 1, unchanged: 0 });
    const toGet = async () => (await anna.house.list()).filter((t) => t.status === 'To Get').map((t) => [t.task, t.quantity, t.note]);
    expect(await toGet()).toEqual([
      ['Eggs', '5', 'For Wed Lunch'],
      // 2 tbsp + 1/4 cup = 6 tbsp, one line, exact, in the unit of its first line.
      ['olive oil', '6 tbsp', 'For Mon Dinner, Wed Lunch'],
      ['lemons', '2', 'For Mon Dinner'],
      ['salt', null, 'For Wed Lunch'],
    ]);

    expect(await anna.plan.shop({ start })).toEqual({ added: 0, merged: 0, unchanged: 5 });
    expect((await toGet()).length).toBe(4);

    // Pasta for 8 now: only the second 1/4 cup and 2 eggs are added.
    await anna.plan.set({ date: addDays(start, 2), meal: 'Lunch', recipeId: pasta.recipe_id, servings: 8 });
    expect(await anna.plan.shop({ start })).toEqual({ added: 0, merged: 2, unchanged: 3 });
    expect(await toGet()).toEqual([
      ['Eggs', '7', 'For Wed Lunch'],
      // 6 tbsp + the second 1/4 cup (4 tbsp): 10 tbsp, never less.
      ['olive oil', '10 tbsp', 'For Mon Dinner, Wed Lunch'],
      ['lemons', '2', 'For Mon Dinner'],
      ['salt', null, 'For Wed Lunch'],
    ]);
  });

  it('writes in metric for a member whose recipes are metric', async () => {
    const anna = callerFor(s.deps, await createUser(s.deps, 'Anna', 3));
    await anna.recipes.saveSettings({ defaultView: 'page', ingredientView: 'tiles-3', measurementSystem: 'metric', improperFractions: false, decimals: false });
    const flour = await anna.recipes.create(recipe('Bread', 1, [{ name: 'flour', quantity: 250, unit_abbreviation: 'g' }]));
    await anna.plan.set({ date: start, meal: 'Lunch', recipeId: flour.recipe_id, servings: 2 });
    await anna.plan.set({ date: addDays(start, 1), meal: 'Lunch', recipeId: flour.recipe_id, servings: 2 });
    expect(await anna.plan.shop({ start })).toEqual({ added: 1, merged: 0, unchanged: 0 });
    expect((await anna.house.list()).map((t) => [t.task, t.quantity, t.note])).toEqual([['flour', '1000 g', 'For Mon Lunch, Tue Lunch']]);
  });
});

describe.each(databases)('chores (%s)', (kind) => {
  const s = usePlanServer(kind);
  const today = () => todayIn(ZONE);

  it('passes the turn A -> B -> C -> A over Done, takes the last back with Undo, and counts points per month', async () => {
    const a = callerFor(s.deps, await createUser(s.deps, 'Anna', 2));
    const b = callerFor(s.deps, await createUser(s.deps, 'Ben', 2));
    const c = callerFor(s.deps, await createUser(s.deps, 'Cleo', 3));
    const { id } = await a.chores.create({ name: 'Dishes', every: { days: 1 }, who: { turns: ['Anna', 'ben', 'Cleo'] }, points: 2 });
    const first = (await a.chores.list())[0]!;
    expect(first).toMatchObject({ id, name: 'Dishes', next: today(), assignee: 'Anna', points: 2, overdue: false, who: { turns: ['Anna', 'Ben', 'Cleo'] }, last: null });
    expect((await a.chores.done({ id })).assignee).toBe('Ben');
    expect((await b.chores.done({ id })).assignee).toBe('Cleo');
    const afterC = await c.chores.done({ id });
    expect(afterC).toMatchObject({ assignee: 'Anna', next: addDays(today(), 1), last: { by: 'Cleo' } });
    const undone = await a.chores.undo({ id });
    // Every day counts from the day it was done: Ben's done had moved it to tomorrow.
    expect(undone).toMatchObject({ assignee: 'Cleo', next: addDays(today(), 1), last: { by: 'Ben' } });
    await c.chores.done({ id });
    const month = today().slice(0, 7);
    expect(await b.chores.points({ month })).toEqual([
      { name: 'Anna', points: 2 },
      { name: 'Ben', points: 2 },
      { name: 'Cleo', points: 2 },
    ]);
    const lastMonth = addDays(`${month}-01`, -1).slice(0, 7);
    expect(await b.chores.points({ month: lastMonth })).toEqual([]);
    await a.chores.undo({ id });
    await a.chores.undo({ id });
    await a.chores.undo({ id });
    await expect(a.chores.undo({ id })).rejects.toThrow(choreMessages.nothingToUndo);
    expect((await a.chores.list())[0]).toMatchObject({ assignee: 'Anna', next: today(), last: null });
  });

  it('schedules weekly and monthly chores, shows what is overdue, and records a done sent twice once', async () => {
    const a = callerFor(s.deps, await createUser(s.deps, 'Anna', 2));
    const weekly = await a.chores.create({ name: 'Bins', every: { weekdays: [1, 4] }, who: { anyone: true } });
    const monthly = await a.chores.create({ name: 'Filters', every: { monthDay: 31 }, who: { one: 'Anna' }, points: 5 });
    const list = await a.chores.list();
    const bins = list.find((x) => x.id === weekly.id)!;
    expect(bins).toMatchObject({ assignee: null, points: 1, overdue: false });
    expect([1, 4]).toContain(new Date(`${bins.next}T00:00:00Z`).getUTCDay() === 0 ? 7 : new Date(`${bins.next}T00:00:00Z`).getUTCDay());
    const filters = list.find((x) => x.id === monthly.id)!;
    expect(filters.assignee).toBe('Anna');
    expect(Number(filters.next.slice(8))).toBeGreaterThanOrEqual(28);

    await s.db.updateTable('chores').set({ next_date: addDays(today(), -3) }).where('id', '=', weekly.id).execute();
    expect((await a.chores.list())[0]).toMatchObject({ id: weekly.id, overdue: true });
    const clientId = '7d3c1c1e-8f1b-4f55-9a43-0b9b2b5b7a11';
    const due = addDays(today(), -3);
    const once = await a.chores.done({ id: weekly.id, due, clientId });
    expect(await a.chores.done({ id: weekly.id, due, clientId })).toEqual(once);
    expect(once.overdue).toBe(false);
    // Another device's done of the same due date, sent later: someone did it meanwhile; nothing is recorded.
    expect(await a.chores.done({ id: weekly.id, due, clientId: '1d3c1c1e-8f1b-4f55-9a43-0b9b2b5b7a12' })).toMatchObject({ conflict: 'alreadyDone' });
    await expect(a.chores.done({ id: weekly.id, due })).rejects.toThrow(choreMessages.alreadyDone);
    expect(await s.db.selectFrom('chore_done').select('id').execute()).toHaveLength(1);

    await a.chores.update({ id: monthly.id, name: 'Filters and vents', who: { turns: ['Anna'] }, points: 3 });
    expect((await a.chores.list()).find((x) => x.id === monthly.id)).toMatchObject({ name: 'Filters and vents', points: 3, who: { turns: ['Anna'] } });
    await a.chores.delete({ id: monthly.id });
    await expect(a.chores.delete({ id: monthly.id })).rejects.toThrow(choreMessages.notFound);
    await expect(a.chores.create({ name: 'X', every: { weekdays: [8] }, who: { anyone: true } })).rejects.toThrow(choreMessages.badWeekdays);
    await expect(a.chores.create({ name: 'X', every: { days: 1 }, who: { turns: ['Anna', 'anna'] } })).rejects.toThrow(choreMessages.sameTwice);
    await expect(a.chores.create({ name: 'X', every: { days: 1 }, who: { one: 'Nobody' } })).rejects.toThrow(planMessages.noMember('Nobody'));
  });
});

describe.each(databases)('who may plan (%s)', (kind) => {
  const s = usePlanServer(kind);

  it('refuses anonymous (401), levels 0 and 1 (403), and lets levels 2 and 3 in', async () => {
    const start = mondayOf(todayIn(ZONE));
    const calls: [string, 'query' | 'mutation', unknown][] = [
      ['plan.week', 'query', { start }],
      ['plan.set', 'mutation', { date: start, meal: 'Dinner', text: 'Soup' }],
      ['plan.shop', 'mutation', { start }],
      ['chores.list', 'query', undefined],
      ['chores.create', 'mutation', { name: 'Bins', every: { days: 7 }, who: { anyone: true } }],
      ['chores.points', 'query', { month: '2026-11' }],
      ['calendar.feed', 'query', undefined],
    ];
    const cookies = [undefined, await cookieFor(s.deps, 0), await cookieFor(s.deps, 1), await cookieFor(s.deps, 2), await cookieFor(s.deps, 3)];
    for (const [path, kind, input] of calls) {
      const statuses = [];
      for (const cookie of cookies) statuses.push(await trpcCall(s, path, kind, input, cookie));
      // plan.shop of a week with a soup only: nothing to shop (400) once a level may ask.
      const allowed = path === 'plan.shop' ? 400 : 200;
      expect([path, ...statuses]).toEqual([path, 401, 403, 403, allowed, allowed]);
    }
  });
});
