import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { clientChangeId } from '../client-change.ts';
import { text } from '../text.ts';
import { MEASUREMENT_SYSTEMS } from '../recipes/recipes.schemas.ts';
import { HOUSE_INGREDIENTS_MAX, HOUSE_NOTE_MAX, HOUSE_QUANTITY_MAX, HOUSE_REPEAT_MAX_DAYS, HOUSE_STATUSES, HOUSE_TASK_MAX, HOUSE_TYPES, houseIngredientMessages, houseMessages, type HouseConflict } from './house.rules.ts';

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

/** A house write's answer: the task, and for a change sent with a client id, what it met meanwhile. */
export type HouseChangeResult = HouseTask & { conflict?: HouseConflict; byOther?: boolean };

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
