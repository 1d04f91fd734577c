import { z } from 'zod';
import { clientChangeId } from '../client-change.ts';
import { rowId } from '../row-id.ts';
import { text } from '../text.ts';
import {
  CHORE_LIMITS,
  PLAN_LIMITS,
  choreMessages,
  isPlanDate,
  planMessages,
  weekdayOf,
  type ChoreConflict,
  type ChoreEvery,
  type ChoreWho,
  type PlanDate,
} from './plan.rules.ts';

const int = (min: number, max: number, message: string) =>
  z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });

export const planDate = z.string({ error: planMessages.badDate }).refine(isPlanDate, { error: planMessages.badDate });
export const weekStart = planDate.refine((d) => weekdayOf(d) === 1, { error: planMessages.notMonday });
const memberName = text({ label: 'Name', max: 100, trim: true, min: 1 });
const mealName = text({ label: 'Meal', max: PLAN_LIMITS.mealName, trim: true, min: 1 });

// ---- Meal plan

export type PlanMeal = { name: string; time: string };
export type PlanSlot = {
  meal: string;
  recipeId: number | null;
  /** The recipe's title when the slot holds a recipe (the page shows it; null for a free text). */
  title: string | null;
  text: string | null;
  cook: string | null;
  servings: number | null;
};
export type PlanDay = { date: PlanDate; slots: PlanSlot[] };
export type PlanWeek = { start: PlanDate; today: PlanDate; meals: PlanMeal[]; days: PlanDay[] };

export const planWeekInput = z.object({ start: weekStart });
export const planSetInput = z
  .object({
    date: planDate,
    meal: mealName,
    recipeId: rowId(planMessages.unknownRecipe).nullable().optional(),
    text: text({ label: 'Text', max: PLAN_LIMITS.text, trim: true }).nullable().optional(),
    cook: memberName.nullable().optional(),
    servings: int(1, PLAN_LIMITS.servings, planMessages.badServings).nullable().optional(),
  })
  .refine((s) => !(s.recipeId != null && s.text), { error: planMessages.recipeOrText, path: ['text'] })
  .refine((s) => s.recipeId != null || !!s.text, { error: planMessages.emptySlot, path: ['text'] });
export type PlanSetInput = z.infer<typeof planSetInput>;
export const planClearInput = z.object({ date: planDate, meal: mealName });
export type PlanClearInput = z.infer<typeof planClearInput>;

export type PlanRecipe = { id: number; title: string };
export type PlanTemplate = { id: number; name: string; slots: number };
export const planSaveTemplateInput = z.object({ start: weekStart, name: text({ label: 'Template name', max: PLAN_LIMITS.templateName, trim: true, min: 1 }) });
export const planApplyTemplateInput = z.object({ id: rowId(planMessages.noTemplate), start: weekStart });
export const planCopyWeekInput = z.object({ start: weekStart });
export const planShopInput = z.object({ start: weekStart });
/** What shopping the week did: lines new on To Get, lines already there that grew, and the recipes' lines already shopped. */
export type PlanShopResult = { added: number; merged: number; unchanged: number };

const mealTime = z.string({ error: planMessages.badTime }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: planMessages.badTime });
export const planSaveMealsInput = z.object({
  meals: z
    .array(z.object({ name: mealName, time: mealTime }))
    .min(1, { error: planMessages.noMeals })
    .max(PLAN_LIMITS.meals, { error: planMessages.tooManyMeals })
    .refine((meals) => new Set(meals.map((m) => m.name.toLocaleLowerCase())).size === meals.length, { error: planMessages.sameMeal }),
  /** Meals renamed: the old name of each meal, by its new position (null for a new meal). */
  renamedFrom: z.array(mealName.nullable()).max(PLAN_LIMITS.meals).optional(),
});
export type PlanSaveMealsInput = z.infer<typeof planSaveMealsInput>;

// ---- Chores

const every: z.ZodType<ChoreEvery> = z.union([
  z.object({ days: int(1, CHORE_LIMITS.days, choreMessages.badDays) }).strict(),
  z
    .object({ weekdays: z.array(int(1, 7, choreMessages.badWeekdays)).min(1, { error: choreMessages.badWeekdays }).max(7, { error: choreMessages.badWeekdays }) })
    .strict()
    .transform((e) => ({ weekdays: [...new Set(e.weekdays)].sort() })),
  z.object({ monthDay: int(1, 31, choreMessages.badMonthDay) }).strict(),
], { error: 'Say how often: every N days, weekdays or a day of the month' });
const who: z.ZodType<ChoreWho> = z.union([
  z.object({ one: memberName }).strict(),
  z
    .object({ turns: z.array(memberName).min(1, { error: choreMessages.noTurns }).max(CHORE_LIMITS.turns, { error: choreMessages.tooManyTurns }) })
    .strict()
    .refine((w) => new Set(w.turns.map((n) => n.toLocaleLowerCase())).size === w.turns.length, { error: choreMessages.sameTwice }),
  z.object({ anyone: z.literal(true) }).strict(),
], { error: 'Say who does it: one member, turns, or anyone' });
const choreId = rowId(choreMessages.notFound);
const choreName = text({ label: 'Chore', max: CHORE_LIMITS.name, trim: true, min: 1 });
const points = int(1, CHORE_LIMITS.points, choreMessages.badPoints);

export const choreCreateInput = z.object({ name: choreName, every, who, points: points.optional() });
export type ChoreCreateInput = z.infer<typeof choreCreateInput>;
export const choreUpdateInput = z.object({ id: choreId, name: choreName.optional(), every: every.optional(), who: who.optional(), points: points.optional() });
export type ChoreUpdateInput = z.infer<typeof choreUpdateInput>;
export const choreIdInput = z.object({ id: choreId });
/** Done and Undo: sent with a client id from the offline queue; `due` is the date the member saw it due (a second done of that date is not recorded). */
export const choreDoneInput = z.object({ id: choreId, due: planDate.optional(), clientId: clientChangeId.optional() });
export type ChoreDoneInput = z.infer<typeof choreDoneInput>;
export const choreUndoInput = z.object({ id: choreId, clientId: clientChangeId.optional() });
export type ChoreUndoInput = z.infer<typeof choreUndoInput>;
export const chorePointsInput = z.object({ month: z.string({ error: choreMessages.badMonth }).refine((m) => /^\d{4}-(0[1-9]|1[0-2])$/.test(m), { error: choreMessages.badMonth }) });

export type Chore = {
  id: number;
  name: string;
  next: PlanDate;
  /** Whose it is now: the one member, whose turn it is, or null for anyone. */
  assignee: string | null;
  points: number;
  overdue: boolean;
  every: ChoreEvery;
  who: ChoreWho;
  /** The last time it was done (Undo takes this one back), or null. */
  last: { by: string | null; at: string } | null;
};
export type ChoreChangeResult = Chore & { conflict?: ChoreConflict };
export type ChorePoints = { name: string; points: number }[];

// ---- Calendar feed

/** The member's feed: its address only when just made (it is kept as a hash, like API tokens), when it was made, and whether it holds everyone's chores. */
export type CalendarFeed = { url: string | null; createdAt: string | null; everyone: boolean };
export const calendarSettingsInput = z.object({ everyone: z.boolean({ error: 'Say whether everyone’s chores are in the feed' }) });
