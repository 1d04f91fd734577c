import {
  PLAN_LIMITS,
  addDays,
  planMessages,
  scaleQuantity,
  todayIn,
  weekDays,
  weekdayOf,
  WEEKDAY_NAMES,
  type PlanDate,
  type PlanMeal,
  type PlanRecipe,
  type PlanSaveMealsInput,
  type PlanSetInput,
  type PlanShopResult,
  type PlanSlot,
  type PlanTemplate,
  type PlanWeek,
} from '@site/contracts';
import { ingredientKey, shoppingName } from '@site/contracts/house';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { addToGet, type ToGetLine } from '../house/house.port.ts';
import { settings as recipeSettings, units } from '../recipes/recipes.port.ts';
import * as repo from './plan.repository.ts';

/** The family members' names (level 2 and up): who may cook and take turns at chores. */
export async function members(deps: AppDeps): Promise<string[]> {
  return (await repo.familyMembers(deps.db)).map((m) => m.name);
}

/** A member's id by name (ignoring case), refused when no family member has it. */
export async function memberId(db: Executor, name: string): Promise<number> {
  const key = name.toLocaleLowerCase();
  const found = (await repo.familyMembers(db)).find((m) => m.name.toLocaleLowerCase() === key);
  if (!found) throw new AppError('BAD_REQUEST', planMessages.noMember(name));
  return found.id;
}

/** Every recipe's id and title, by title: what a slot can be planned with. */
export async function recipes(deps: AppDeps): Promise<PlanRecipe[]> {
  return deps.db.selectFrom('recipes').select(['id', 'title']).orderBy('title').orderBy('id').execute();
}

async function mealId(db: Executor, name: string): Promise<number> {
  const key = name.toLocaleLowerCase();
  const meal = (await repo.listMeals(db)).find((m) => m.name.toLocaleLowerCase() === key);
  if (!meal) throw new AppError('BAD_REQUEST', planMessages.unknownMeal(name));
  return meal.id;
}

const toSlot = (row: repo.SlotRow): PlanSlot => ({ meal: row.meal, recipeId: row.recipe_id, title: row.recipe_id === null ? null : row.title, text: row.text, cook: row.cook, servings: row.servings });

/** The week starting Monday `start`: each day with its planned meals in the day's order. */
export async function week(deps: AppDeps, start: PlanDate): Promise<PlanWeek> {
  const meals: PlanMeal[] = (await repo.listMeals(deps.db)).map((m) => ({ name: m.name, time: m.time }));
  const rows = await repo.slotsBetween(deps.db, start, addDays(start, 6));
  return {
    start,
    today: todayIn(deps.config.timeZone),
    meals,
    days: weekDays(start).map((date) => ({ date, slots: rows.filter((r) => r.date === date).map(toSlot) })),
  };
}

/** Plans one meal: a recipe (at its own servings unless told) or a text, and who cooks. */
export async function set(deps: AppDeps, input: PlanSetInput): Promise<PlanSlot> {
  return deps.db.transaction().execute(async (trx) => {
    const meal = await mealId(trx, input.meal);
    const recipeId = input.recipeId ?? null;
    if (recipeId !== null) {
      const recipe = await trx.selectFrom('recipes').select('id').where('id', '=', recipeId).executeTakeFirst();
      if (!recipe) throw new AppError('BAD_REQUEST', planMessages.unknownRecipe);
    }
    const cook = input.cook ? await memberId(trx, input.cook) : null;
    await repo.upsertSlot(trx, input.date, meal, { recipe_id: recipeId, text: recipeId === null ? (input.text ?? null) : null, cook_id: cook, servings: input.servings ?? null });
    const [row] = (await repo.slotsBetween(trx, input.date, input.date)).filter((r) => r.meal_id === meal);
    return toSlot(row!);
  });
}

export async function clear(deps: AppDeps, input: { date: PlanDate; meal: string }): Promise<{ ok: true }> {
  return deps.db.transaction().execute(async (trx) => {
    if (!(await repo.deleteSlot(trx, input.date, await mealId(trx, input.meal)))) throw new AppError('NOT_FOUND', planMessages.noSlot);
    return { ok: true as const };
  });
}

type WeekSlot = { weekday: number; meal_id: number } & repo.SlotValues;

/** Writes slots onto the week starting `start`, each over whatever that meal held. */
async function fillWeek(trx: Executor, start: PlanDate, slots: WeekSlot[]): Promise<number> {
  for (const s of slots) await repo.upsertSlot(trx, addDays(start, s.weekday - 1), s.meal_id, { recipe_id: s.recipe_id, text: s.text, cook_id: s.cook_id, servings: s.servings });
  return slots.length;
}

async function slotsOfWeek(trx: Executor, start: PlanDate): Promise<WeekSlot[]> {
  return (await repo.slotsBetween(trx, start, addDays(start, 6))).map((r) => ({ weekday: weekdayOf(r.date), meal_id: r.meal_id, recipe_id: r.recipe_id, text: r.text, cook_id: r.cook_id, servings: r.servings }));
}

/** "Copy last week": the previous week's meals onto this one (meals planned here already are replaced by last week's where both have one). */
export async function copyLastWeek(deps: AppDeps, start: PlanDate): Promise<{ copied: number }> {
  return deps.db.transaction().execute(async (trx) => {
    const slots = await slotsOfWeek(trx, addDays(start, -7));
    if (slots.length === 0) throw new AppError('BAD_REQUEST', planMessages.emptyWeek);
    return { copied: await fillWeek(trx, start, slots) };
  });
}

export async function templates(deps: AppDeps): Promise<PlanTemplate[]> {
  const rows = await deps.db
    .selectFrom('plan_templates as t')
    .leftJoin('plan_template_slots as s', 's.template_id', 't.id')
    .select(['t.id', 't.name', (eb) => eb.fn.count<string>('s.id').as('slots')])
    .groupBy(['t.id', 't.name'])
    .orderBy('t.name')
    .orderBy('t.id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, slots: Number(r.slots) }));
}

export async function saveTemplate(deps: AppDeps, user: SessionUser, input: { start: PlanDate; name: string }): Promise<PlanTemplate> {
  return deps.db.transaction().execute(async (trx) => {
    const slots = await slotsOfWeek(trx, input.start);
    if (slots.length === 0) throw new AppError('BAD_REQUEST', planMessages.emptyWeek);
    const count = await trx.selectFrom('plan_templates').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    if (Number(count.n) >= PLAN_LIMITS.templates) throw new AppError('BAD_REQUEST', planMessages.tooManyTemplates);
    const { id } = await trx.insertInto('plan_templates').values({ name: input.name, created_by: user.id }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('plan_template_slots').values(slots.map((s) => ({ template_id: id, ...s }))).execute();
    return { id, name: input.name, slots: slots.length };
  });
}

export async function applyTemplate(deps: AppDeps, input: { id: number; start: PlanDate }): Promise<{ copied: number }> {
  return deps.db.transaction().execute(async (trx) => {
    const template = await trx.selectFrom('plan_templates').select('id').where('id', '=', input.id).executeTakeFirst();
    if (!template) throw new AppError('NOT_FOUND', planMessages.noTemplate);
    const slots = await trx.selectFrom('plan_template_slots').select(['weekday', 'meal_id', 'recipe_id', 'text', 'cook_id', 'servings']).where('template_id', '=', input.id).execute();
    return { copied: await fillWeek(trx, input.start, slots) };
  });
}

/** The owner names the day's meals and their times; a meal renamed keeps its slots, a meal left out loses them. */
export async function saveMeals(deps: AppDeps, input: PlanSaveMealsInput): Promise<PlanMeal[]> {
  return deps.db.transaction().execute(async (trx) => {
    const before = await repo.listMeals(trx);
    const keep = new Set<number>();
    for (const [position, meal] of input.meals.entries()) {
      const from = input.renamedFrom?.[position] ?? meal.name;
      const existing = before.find((m) => m.name.toLocaleLowerCase() === from.toLocaleLowerCase() && !keep.has(m.id));
      if (existing) {
        keep.add(existing.id);
        await trx.updateTable('plan_meals').set({ name: meal.name, time: meal.time, position }).where('id', '=', existing.id).execute();
      } else {
        const { id } = await trx.insertInto('plan_meals').values({ name: meal.name, time: meal.time, position }).returning('id').executeTakeFirstOrThrow();
        keep.add(id);
      }
    }
    const gone = before.filter((m) => !keep.has(m.id)).map((m) => m.id);
    if (gone.length > 0) await trx.deleteFrom('plan_meals').where('id', 'in', gone).execute();
    return (await repo.listMeals(trx)).map((m) => ({ name: m.name, time: m.time }));
  });
}

/** 'Mon Dinner': a slot as a To Get line names it. */
const mealLabel = (date: PlanDate, meal: string) => `${WEEKDAY_NAMES[weekdayOf(date) - 1]!.slice(0, 3)} ${meal}`;

/**
 * "Shop for the week", in one transaction: every ingredient of the week's recipes, scaled to each
 * slot's servings, summed per ingredient and recipe unit; then only what grew since this week was last
 * shopped (plan_shopped) goes to House To Get through House's own service, which merges it with what is
 * already there in the member's measurement system. Each line says which meals need it.
 */
export async function shop(deps: AppDeps, user: SessionUser, start: PlanDate): Promise<PlanShopResult> {
  const [dict, mine] = await Promise.all([units(deps), recipeSettings(deps, user)]);
  return deps.db.transaction().execute(async (trx) => {
    const slots = (await repo.slotsBetween(trx, start, addDays(start, 6))).filter((s) => s.recipe_id !== null);
    if (slots.length === 0) throw new AppError('BAD_REQUEST', planMessages.emptyWeek);
    const ingredients = await repo.ingredientsOf(trx, [...new Set(slots.map((s) => s.recipe_id!))]);
    type Total = { name: string; pluralName: string; unit: string | null; quantity: number; measured: boolean; meals: string[] };
    const totals = new Map<string, Total>();
    for (const slot of slots) {
      for (const i of ingredients) {
        if (i.recipe_id !== slot.recipe_id) continue;
        const quantity = i.quantity === null || i.quantity <= 0 ? null : scaleQuantity(i.quantity, slot.servings ?? i.servings ?? 1, i.servings);
        // One ingredient however worded ('onion, finely chopped', 'onions'): its shopping name, singular.
        const key = `${ingredientKey(i.name)}\u0000${i.unit_abbreviation ?? ''}`;
        const total = totals.get(key) ?? { name: shoppingName(i.name), pluralName: shoppingName(i.plural_name), unit: i.unit_abbreviation, quantity: 0, measured: false, meals: [] };
        if (quantity !== null) {
          total.quantity += quantity;
          total.measured = true;
        }
        const label = mealLabel(slot.date, slot.meal);
        if (!total.meals.includes(label)) total.meals.push(label);
        totals.set(key, total);
      }
    }
    const before = new Map((await repo.shopped(trx, start)).map((r) => [`${r.ingredient}\u0000${r.unit}`, r.quantity]));
    const lines: ToGetLine[] = [];
    let unchanged = 0;
    for (const [key, total] of totals) {
      const had = before.get(key);
      // Rounding of a sum read back: a hair's difference is no change.
      const grew = had === undefined ? total.quantity : total.quantity - had > 1e-9 ? total.quantity - had : 0;
      if (had !== undefined && grew === 0) {
        unchanged++;
        continue;
      }
      lines.push({ name: total.name, pluralName: total.pluralName, quantity: total.measured ? grew : null, unit: total.unit, meals: total.meals });
    }
    const result = lines.length === 0 ? { added: 0, merged: 0 } : await addToGet(trx, user, lines, mine.measurementSystem, dict);
    await repo.saveShopped(
      trx,
      start,
      [...totals].map(([key, total]) => {
        const [ingredient, unit] = key.split('\u0000') as [string, string];
        return { ingredient, unit, quantity: Math.max(total.quantity, before.get(key) ?? 0) };
      }),
    );
    return { ...result, unchanged };
  });
}
