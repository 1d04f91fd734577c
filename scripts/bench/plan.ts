/**
 * `npm run bench:plan` (issue 39), on the embedded database (PGlite) in this process:
 * - `plan.shop` of a week of 21 recipe slots (3 meals x 7 days, 21 recipes of 12 ingredients each,
 *   many shared: olive oil in tablespoons and cups, onions, salt), into a To Get list of 40 lines;
 *   the first press, and a second press that adds nothing (goal: each < 300 ms, one transaction);
 * - the calendar feed with a year of plan and chores (3 meals a day for 365 days, 12 chores of every
 *   schedule, everyone's): a full answer (goal < 50 ms), the answer after a change (the feed made
 *   again) and a poll with its ETag (304).
 * Prints the median and worst of BENCH_ROUNDS (10) rounds.
 */
import { addDays, mondayOf, todayIn, type RecipeInput } from '@site/contracts';
import { buildApp } from '@site/server/app';
import { createContextInner } from '@site/server/trpc/context';
import { appRouter } from '@site/server/router';
import { openBenchSite } from './bench-site.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const SHARED = [
  { name: 'olive oil', quantity: 2, unit_abbreviation: 'tbsp' },
  { name: 'olive oil', quantity: 0.25, unit_abbreviation: 'cup' },
  { name: 'onion', plural_name: 'onions', quantity: 1, unit_abbreviation: null },
  { name: 'garlic clove', plural_name: 'garlic cloves', quantity: 2, unit_abbreviation: null },
  { name: 'salt', quantity: null, unit_abbreviation: null },
  { name: 'flour', quantity: 200, unit_abbreviation: 'g' },
];

const site = await openBenchSite('bench-plan-');
const app = await buildApp(site.deps);
await app.ready();
const owner = await site.deps.db.selectFrom('users').select(['id', 'name', 'level']).executeTakeFirstOrThrow();
const caller = appRouter.createCaller(createContextInner(site.deps, { user: { id: owner.id, name: owner.name, level: 3 } }));

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, worst ${sorted.at(-1)!.toFixed(1)} ms`;
};
async function time(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

try {
  const recipes: number[] = [];
  for (let i = 0; i < 21; i++) {
    const own = Array.from({ length: 6 }, (_, j) => ({ name: `spice ${i}-${j}`, quantity: 1 + j, unit_abbreviation: 'tsp' }));
    const recipe: RecipeInput = { title: `Dish ${i}`, servings: 4, steps: [{ instructions: 'Cook.', ingredients: [...SHARED, ...own].map((x) => ({ plural_name: '', ...x })) }] };
    recipes.push((await caller.recipes.create(recipe)).recipe_id);
  }
  for (let i = 0; i < 40; i++) await caller.house.add({ task: i % 4 === 0 ? 'onions' : `thing ${i}`, type: 'To Get', quantity: i % 4 === 0 ? '2' : '1' });

  // plan.shop: a fresh week per round (the first press), then the same week again (adds nothing).
  const first: number[] = [];
  const second: number[] = [];
  const monday = mondayOf(todayIn(site.deps.config.timeZone));
  for (let round = 0; round < ROUNDS; round++) {
    const start = addDays(monday, 7 * (round + 1));
    for (let day = 0; day < 7; day++) {
      for (const [m, meal] of ['Breakfast', 'Lunch', 'Dinner'].entries()) {
        await caller.plan.set({ date: addDays(start, day), meal, recipeId: recipes[day * 3 + m]!, servings: 2 + ((day + m) % 5) });
      }
    }
    first.push(await time(() => caller.plan.shop({ start })));
    second.push(await time(async () => {
      const again = await caller.plan.shop({ start });
      if (again.added + again.merged !== 0) throw new Error('The second press added something');
    }));
  }
  console.log(`plan.shop, 21 recipe slots, first press:  ${stats(first)} (goal < 300 ms)`);
  console.log(`plan.shop, the same week again (adds 0): ${stats(second)} (goal < 300 ms)`);

  // A year of plan: 3 meals a day from today, and 12 chores of every schedule.
  const today = todayIn(site.deps.config.timeZone);
  const year = Array.from({ length: 365 }, (_, d) => addDays(today, d));
  const meals = (await site.deps.db.selectFrom('plan_meals').select('id').execute()).map((m) => m.id);
  const rows = year.flatMap((date, d) => meals.map((meal_id, m) => ({ date, meal_id, recipe_id: (d + m) % 3 === 0 ? recipes[(d + m) % 21]! : null, text: (d + m) % 3 === 0 ? null : `Leftovers, day ${d}; 🍲`, cook_id: owner.id, servings: 4 })));
  for (let i = 0; i < rows.length; i += 500) await site.deps.db.insertInto('plan_slots').values(rows.slice(i, i + 500)).onConflict((oc) => oc.columns(['date', 'meal_id']).doNothing()).execute();
  for (let i = 0; i < 12; i++) {
    const every = i % 3 === 0 ? { days: 1 + (i % 4) } : i % 3 === 1 ? { weekdays: [1, 3, 5] } : { monthDay: 1 + i };
    await caller.chores.create({ name: `Chore ${i}`, every, who: i % 2 === 0 ? { turns: ['bench'] } : { anyone: true } });
  }
  const { url } = await caller.calendar.reset();
  await caller.calendar.settings({ everyone: true });
  const path = new URL(url!).pathname;
  const full: number[] = [];
  const made: number[] = [];
  const polls: number[] = [];
  let etag = '';
  let bytes = 0;
  let events = 0;
  for (let round = 0; round < ROUNDS; round++) {
    full.push(await time(async () => {
      const res = await app.inject({ method: 'GET', url: path });
      if (res.statusCode !== 200) throw new Error(`feed answered ${res.statusCode}`);
      etag = res.headers.etag as string;
      bytes = res.rawPayload.length;
      events = res.body.split('BEGIN:VEVENT').length - 1;
    }));
    // A change (a meal of next month): the feed is made again for the next answer.
    await caller.plan.set({ date: addDays(today, 30), meal: 'Lunch', text: `Soup ${round}` });
    made.push(await time(async () => {
      const res = await app.inject({ method: 'GET', url: path, headers: { 'if-none-match': etag } });
      if (res.statusCode !== 200) throw new Error(`a changed feed answered ${res.statusCode}`);
      etag = res.headers.etag as string;
    }));
    polls.push(await time(async () => {
      const res = await app.inject({ method: 'GET', url: path, headers: { 'if-none-match': etag } });
      if (res.statusCode !== 304) throw new Error(`a poll with the ETag answered ${res.statusCode}`);
    }));
  }
  console.log(`calendar feed, a year (${events} events, ${(bytes / 1024).toFixed(0)} KB), nothing changed since made: ${stats(full)} (goal < 50 ms)`);
  console.log(`calendar feed, a year, made again after a change: ${stats(made)}`);
  console.log(`calendar feed, a poll with its ETag (304): ${stats(polls)}`);
} finally {
  await app.close();
  await site.close();
}
