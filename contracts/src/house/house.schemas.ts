import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { clientChangeId } from '../client-change.ts';
import { text } from '../text.ts';
import { MEASUREMENT_SYSTEMS } from '../recipes/recipes.schemas.ts';

/** A house task's state, in the order the list is sorted. New tasks are To Do or To Get. */
export const HOUSE_STATUSES = ['To Do', 'To Get', 'Complete'] as const;
export type HouseStatus = (typeof HOUSE_STATUSES)[number];
export const HOUSE_TYPES = ['To Do', 'To Get'] as const;
export type HouseType = (typeof HOUSE_TYPES)[number];

export const HOUSE_TASK_MAX = 500;
export const HOUSE_QUANTITY_MAX = 50;
export const HOUSE_NOTE_MAX = 500;
export const HOUSE_REPEAT_MAX_DAYS = 365;
/** Completed tasks are listed under "Recently done" (with Undo) this long after completion. */
export const HOUSE_RECENT_HOURS = 24;

export const houseMessages = {
  badType: "The type must be 'To Do' or 'To Get'",
  notFound: 'No such house task',
  alreadyComplete: 'That task is already complete',
  badId: 'A task is named by its id, a whole number',
  badRepeat: `Repeat every 1 to ${HOUSE_REPEAT_MAX_DAYS} days, a whole number`,
  repeatOnlyToDo: 'Only To Do tasks can repeat',
  notComplete: 'That task is not done',
  undoTooLate: `Only tasks done in the last ${HOUSE_RECENT_HOURS} hours can be undone`,
} as const;

/** To Do, To Get, Complete, then oldest first. */
export function compareHouse(a: { status: HouseStatus; id: number }, b: { status: HouseStatus; id: number }): number {
  return HOUSE_STATUSES.indexOf(a.status) - HOUSE_STATUSES.indexOf(b.status) || a.id - b.id;
}

export const houseTask = z.object({
  id: z.number(),
  task: z.string(),
  status: z.enum(HOUSE_STATUSES),
  /** Which list it is (or was, once complete) on. */
  type: z.enum(HOUSE_TYPES),
  quantity: z.string().nullable(),
  note: z.string().nullable(),
  /** A repeating To Do: completing it adds the next occurrence, due this many days later. */
  repeatDays: z.number().nullable(),
  /** ISO time; set on a repeating task's next occurrence. */
  dueAt: z.string().nullable(),
  /** ISO time the task was completed, or null. */
  completedAt: z.string().nullable(),
});
export type HouseTask = z.infer<typeof houseTask>;

const houseId = rowId(houseMessages.badId);

export const addHouseInput = z.object({
  task: text({ label: 'Task', max: HOUSE_TASK_MAX, trim: true, min: 1 }),
  type: z.enum(HOUSE_TYPES, { error: houseMessages.badType }),
  quantity: text({ label: 'Quantity', max: HOUSE_QUANTITY_MAX, trim: true }).optional(),
  note: text({ label: 'Note', max: HOUSE_NOTE_MAX, trim: true, multiline: true }).optional(),
  repeatDays: z
    .number({ error: houseMessages.badRepeat })
    .int({ error: houseMessages.badRepeat })
    .min(1, { error: houseMessages.badRepeat })
    .max(HOUSE_REPEAT_MAX_DAYS, { error: houseMessages.badRepeat })
    .nullable()
    .optional(),
  clientId: clientChangeId.optional(),
}).refine((input) => input.repeatDays == null || input.type === 'To Do', { message: houseMessages.repeatOnlyToDo, path: ['repeatDays'] });
export type AddHouseInput = z.infer<typeof addHouseInput>;

export const completeHouseInput = z.object({ id: houseId, clientId: clientChangeId.optional() });
export type CompleteHouseInput = z.infer<typeof completeHouseInput>;

export const undoHouseInput = z.object({ id: houseId, clientId: clientChangeId.optional() });
export type UndoHouseInput = z.infer<typeof undoHouseInput>;

/**
 * What a change sent with a client id (a queued offline change) found, when it was not what the
 * member saw: the task was completed meanwhile (the completion stands, once), put back meanwhile (it
 * stays open, once), or an item of the same name was already open on that list (both are kept).
 */
export const HOUSE_CONFLICTS = ['alreadyComplete', 'alreadyOpen', 'alsoOnList'] as const;
export type HouseConflict = (typeof HOUSE_CONFLICTS)[number];

/** A house write's answer: the task, and for a change sent with a client id, what it met meanwhile. */
export type HouseChangeResult = HouseTask & { conflict?: HouseConflict; byOther?: boolean };

/** Whether a completed task still shows under "Recently done" at `now`. */
export function isRecentlyDone(task: Pick<HouseTask, 'status' | 'completedAt'>, now: number): boolean {
  return task.status === 'Complete' && task.completedAt !== null && now - Date.parse(task.completedAt) < HOUSE_RECENT_HOURS * 3600_000;
}

export const HOUSE_INGREDIENTS_MAX = 100;

export const houseIngredientMessages = {
  none: 'Choose at least one ingredient',
  tooMany: `At most ${HOUSE_INGREDIENTS_MAX} ingredients at once`,
  badQuantity: 'A quantity is a positive number',
  badSystem: "The measurement system must be 'as-written', 'metric' or 'american'",
} as const;

/** Recipe ingredients for the To Get list, scaled to the chosen servings, each in its recipe unit. */
export const addIngredientsInput = z.object({
  lines: z
    .array(
      z.object({
        name: text({ label: 'Ingredient', max: 200, trim: true, min: 1 }),
        pluralName: text({ label: 'Plural name', max: 200, trim: true }),
        quantity: z.number({ error: houseIngredientMessages.badQuantity }).positive({ error: houseIngredientMessages.badQuantity }).max(1e9, { error: houseIngredientMessages.badQuantity }).nullable(),
        unit: text({ label: 'Unit', max: 30, trim: true }).nullable(),
      }),
    )
    .min(1, { error: houseIngredientMessages.none })
    .max(HOUSE_INGREDIENTS_MAX, { error: houseIngredientMessages.tooMany }),
  system: z.enum(MEASUREMENT_SYSTEMS, { error: houseIngredientMessages.badSystem }),
});
export type AddIngredientsInput = z.infer<typeof addIngredientsInput>;
export type AddIngredientsResult = { added: number; merged: number };
