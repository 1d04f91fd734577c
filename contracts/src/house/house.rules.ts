/*
 * The house list's words, limits, messages and orderings: plain values without zod, so a page loads
 * them without the schemas (house.schemas.ts), which the offline queue loads when a change must wait.
 */

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

/**
 * What a change sent with a client id (a queued offline change) found, when it was not what the
 * member saw: the task was completed meanwhile (the completion stands, once), put back meanwhile (it
 * stays open, once), or an item of the same name was already open on that list (both are kept).
 */
export const HOUSE_CONFLICTS = ['alreadyComplete', 'alreadyOpen', 'alsoOnList'] as const;
export type HouseConflict = (typeof HOUSE_CONFLICTS)[number];

/** Whether a completed task still shows under "Recently done" at `now`. */
export function isRecentlyDone(task: { status: HouseStatus; completedAt: string | null }, now: number): boolean {
  return task.status === 'Complete' && task.completedAt !== null && now - Date.parse(task.completedAt) < HOUSE_RECENT_HOURS * 3600_000;
}

export const HOUSE_INGREDIENTS_MAX = 100;

export const houseIngredientMessages = {
  none: 'Choose at least one ingredient',
  tooMany: `At most ${HOUSE_INGREDIENTS_MAX} ingredients at once`,
  badQuantity: 'A quantity is a positive number',
  badSystem: "The measurement system must be 'as-written', 'metric' or 'american'",
} as const;
