import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** The family: members of level 2 and up (who may cook and do chores), by id and name. */
export function familyMembers(db: Executor) {
  return db.selectFrom('users').select(['id', 'name']).where('level', '>=', 2).orderBy('name_key').execute();
}

export function listMeals(db: Executor) {
  return db.selectFrom('plan_meals').select(['id', 'name', 'time']).orderBy('position').orderBy('id').execute();
}

/** The slots of the days `from` to `to` (inclusive), with their recipe's title and their cook's name. */
export function slotsBetween(db: Executor, from: string, to: string) {
  return db
    .selectFrom('plan_slots as s')
    .innerJoin('plan_meals as m', 'm.id', 's.meal_id')
    .leftJoin('recipes as r', 'r.id', 's.recipe_id')
    .leftJoin('users as u', 'u.id', 's.cook_id')
    .select(['s.id', 's.date', 's.meal_id', 'm.name as meal', 'm.time', 'm.position', 's.recipe_id', 'r.title', 'r.servings as recipe_servings', 's.text', 's.cook_id', 'u.name as cook', 's.servings', 's.updated_at'])
    .where('s.date', '>=', from)
    .where('s.date', '<=', to)
    .orderBy('s.date')
    .orderBy('m.position')
    .execute();
}
export type SlotRow = Awaited<ReturnType<typeof slotsBetween>>[number];

export type SlotValues = { recipe_id: number | null; text: string | null; cook_id: number | null; servings: number | null };

export async function upsertSlot(db: Executor, date: string, mealId: number, values: SlotValues) {
  await db
    .insertInto('plan_slots')
    .values({ date, meal_id: mealId, ...values })
    .onConflict((oc) => oc.columns(['date', 'meal_id']).doUpdateSet({ ...values, updated_at: sql`now()` }))
    .execute();
}

export async function deleteSlot(db: Executor, date: string, mealId: number): Promise<boolean> {
  const result = await db.deleteFrom('plan_slots').where('date', '=', date).where('meal_id', '=', mealId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every ingredient of these recipes, with the recipe's own servings (the base a slot's servings scale from). */
export function ingredientsOf(db: Executor, recipeIds: number[]) {
  if (recipeIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('recipe_ingredients as i')
    .innerJoin('recipe_steps as st', 'st.id', 'i.step_id')
    .innerJoin('recipes as r', 'r.id', 'st.recipe_id')
    .select(['r.id as recipe_id', 'r.servings', 'i.name', 'i.plural_name', 'i.quantity', 'i.unit_abbreviation'])
    .where('r.id', 'in', recipeIds)
    .orderBy('r.id')
    .orderBy('st.position')
    .orderBy('i.position')
    .execute();
}

export function shopped(db: Executor, weekStart: string) {
  return db.selectFrom('plan_shopped').select(['ingredient', 'unit', 'quantity']).where('week_start', '=', weekStart).forUpdate().execute();
}

export async function saveShopped(db: Executor, weekStart: string, rows: { ingredient: string; unit: string; quantity: number }[]) {
  if (rows.length === 0) return;
  await db
    .insertInto('plan_shopped')
    .values(rows.map((r) => ({ week_start: weekStart, ...r })))
    .onConflict((oc) => oc.columns(['week_start', 'ingredient', 'unit']).doUpdateSet({ quantity: (eb) => eb.ref('excluded.quantity') }))
    .execute();
}
