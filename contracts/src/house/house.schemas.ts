import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { text } from '../text.ts';

/** A house task's state, in the order the list is sorted. New tasks are To Do or To Get. */
export const HOUSE_STATUSES = ['To Do', 'To Get', 'Complete'] as const;
export type HouseStatus = (typeof HOUSE_STATUSES)[number];
export const HOUSE_TYPES = ['To Do', 'To Get'] as const;
export type HouseType = (typeof HOUSE_TYPES)[number];

export const HOUSE_TASK_MAX = 500;

export const houseMessages = {
  badType: "The type must be 'To Do' or 'To Get'",
  notFound: 'No such house task',
  alreadyComplete: 'That task is already complete',
  badId: 'A task is named by its id, a whole number',
} as const;

/** To Do, To Get, Complete, then oldest first. */
export function compareHouse(a: { status: HouseStatus; id: number }, b: { status: HouseStatus; id: number }): number {
  return HOUSE_STATUSES.indexOf(a.status) - HOUSE_STATUSES.indexOf(b.status) || a.id - b.id;
}

export const houseTask = z.object({ id: z.number(), task: z.string(), status: z.enum(HOUSE_STATUSES) });
export type HouseTask = z.infer<typeof houseTask>;

const houseId = rowId(houseMessages.badId);

export const addHouseInput = z.object({
  task: text({ label: 'Task', max: HOUSE_TASK_MAX, trim: true, min: 1 }),
  type: z.enum(HOUSE_TYPES, { error: houseMessages.badType }),
});
export type AddHouseInput = z.infer<typeof addHouseInput>;

export const completeHouseInput = z.object({ id: houseId });
export type CompleteHouseInput = z.infer<typeof completeHouseInput>;
