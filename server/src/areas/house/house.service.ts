import {
  HOUSE_RECENT_HOURS,
  compareHouse,
  houseMessages,
  type AddHouseInput,
  type CompleteHouseInput,
  type HouseChangeResult,
  type HouseTask,
  type UndoHouseInput,
  type AddIngredientsInput,
  type AddIngredientsResult,
  planShopping,
  sameIngredient,
  HOUSE_NOTE_MAX,
  type MeasurementSystem,
  type ShoppingLine,
  type UnitDict,
} from '@site/contracts';
import { units } from '../recipes/recipes.port.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import type { Executor } from '../../db/database.ts';
import { applyOnce } from '../../client-changes/client-changes.ts';
import * as repo from './house.repository.ts';
import { recordEvent } from '../notifications/notifications.events.ts';

/** Completed tasks stay in the answer this long (sorted last), so the list does not grow for ever. */
export const COMPLETED_SHOWN_DAYS = 30;
const DAY_MS = 24 * 3600_000;

/** The shared house list, readable by anyone: To Do, To Get, then recently completed, oldest first. */
export async function list(deps: AppDeps): Promise<HouseTask[]> {
  const since = new Date(Date.now() - COMPLETED_SHOWN_DAYS * DAY_MS);
  const rows = await repo.listTasks(deps.db, since);
  return rows.map(repo.toTask).sort(compareHouse);
}

/**
 * Adds a task. Sent with a client id (a change queued offline), it is added once however often it is
 * sent, and an open item of the same name already on that list is reported (both are kept: two people
 * may well mean two things).
 */
export function add(deps: AppDeps, user: SessionUser, input: AddHouseInput): Promise<HouseChangeResult> {
  return applyOnce(deps.db, user.id, 'house.add', input.clientId, async (trx) => {
    const task = repo.toTask(
      await repo.insertTask(trx, user.id, {
        task: input.task,
        type: input.type,
        quantity: input.quantity || null,
        note: input.note || null,
        repeatDays: input.repeatDays ?? null,
        dueAt: null,
      }),
    );
    await recordEvent(trx, { kind: 'house.added', actorId: user.id, subjectId: task.id, title: `${user.name} added ${task.task}`, body: `House ${task.type}`, url: '/house' });
    if (input.clientId !== undefined && (await repo.openNamesake(trx, task.id, task.task, task.type))) return { ...task, conflict: 'alsoOnList' };
    return task;
  });
}

async function lockedTask(trx: Executor, id: number) {
  const task = await repo.findTask(trx, id);
  if (!task) throw new AppError('NOT_FOUND', houseMessages.notFound);
  return task;
}

/**
 * Completes a task. A repeating one gets its next occurrence as a NEW task, due `repeat_days` after
 * this completion (counted from completion, not from the old due date): the completed one stays a
 * record under "Recently done", and Undo can tell exactly which occurrence to take back.
 *
 * Completing a completed task is refused, except for a change sent with a client id (made offline):
 * the member's intent already holds, so it answers the task as it is, marked `alreadyComplete`.
 */
export function complete(deps: AppDeps, user: SessionUser, input: CompleteHouseInput): Promise<HouseChangeResult> {
  return applyOnce(deps.db, user.id, 'house.complete', input.clientId, async (trx) => {
    const task = await lockedTask(trx, input.id);
    if (task.status === 'Complete') {
      if (input.clientId === undefined) throw new AppError('CONFLICT', houseMessages.alreadyComplete);
      return { ...repo.toTask(task), conflict: 'alreadyComplete', byOther: task.completed_by !== user.id };
    }
    const now = new Date();
    let nextId: number | null = null;
    if (task.repeat_days !== null) {
      const next = await repo.insertTask(trx, user.id, {
        task: task.task,
        type: task.type,
        quantity: task.quantity,
        note: task.note,
        repeatDays: task.repeat_days,
        dueAt: new Date(now.getTime() + task.repeat_days * DAY_MS),
      });
      nextId = next.id;
    }
    return repo.toTask(await repo.completeTask(trx, user.id, input.id, now, nextId));
  });
}

/**
 * Puts a task completed in the last 24 hours back on its list, and takes back the occurrence its
 * completion added. A change sent with a client id finding the task already open answers it as it is,
 * marked `alreadyOpen` (someone put it back meanwhile).
 */
export function undo(deps: AppDeps, user: SessionUser, input: UndoHouseInput): Promise<HouseChangeResult> {
  return applyOnce(deps.db, user.id, 'house.undo', input.clientId, async (trx) => {
    const task = await lockedTask(trx, input.id);
    if (task.status !== 'Complete' || task.completed_at === null) {
      if (input.clientId === undefined) throw new AppError('CONFLICT', houseMessages.notComplete);
      return { ...repo.toTask(task), conflict: 'alreadyOpen' };
    }
    if (Date.now() - task.completed_at.getTime() >= HOUSE_RECENT_HOURS * 3600_000) throw new AppError('CONFLICT', houseMessages.undoTooLate);
    if (task.next_id !== null) await repo.deleteOpenTask(trx, task.next_id);
    return repo.toTask(await repo.reopenTask(trx, task.id, task.type));
  });
}

/**
 * A recipe's ingredients onto the To Get list: each merges into the open item of the same
 * ingredient when the amounts add up (2 + 3 eggs, 200 g + 0.5 kg flour), else becomes its own item.
 */
export async function addIngredients(deps: AppDeps, user: SessionUser, input: AddIngredientsInput): Promise<AddIngredientsResult> {
  const dict = await units(deps);
  return deps.db.transaction().execute((trx) => addToGet(trx, user, input.lines, input.system, dict));
}

/** An ingredient for To Get, and the meals that need it (the meal plan's "Shop for the week": 'Mon Dinner'). */
export type ToGetLine = ShoppingLine & { meals?: string[] };

/** A line's note naming the meals that need it, added to the note it has ('For Mon Dinner, Wed Lunch'). */
function mealsNote(note: string | null, meals: string[]): string | null {
  const missing = meals.filter((m) => !(note ?? '').includes(m));
  if (missing.length === 0) return note;
  const text = note === null || note === '' ? `For ${missing.join(', ')}` : note.startsWith('For ') ? `${note}, ${missing.join(', ')}` : `${note}; for ${missing.join(', ')}`;
  return text.length <= HOUSE_NOTE_MAX ? text : `${text.slice(0, HOUSE_NOTE_MAX - 1)}…`;
}

/**
 * The one way onto To Get from elsewhere (a recipe's page, the meal plan), inside the caller's
 * transaction: the lines merge into the open items (planShopping), and a line that names meals says so
 * in its item's note.
 */
export async function addToGet(trx: Executor, user: SessionUser, lines: readonly ToGetLine[], system: MeasurementSystem, dict: UnitDict): Promise<AddIngredientsResult> {
  const open = await repo.openToGet(trx);
  const plan = planShopping(open, lines, system, dict);
  const mealsOf = (task: string) => [...new Set(lines.filter((l) => sameIngredient(task, l)).flatMap((l) => l.meals ?? []))];
  for (const update of plan.updates) {
    const item = open.find((o) => o.id === update.id)!;
    await repo.setQuantity(trx, update.id, update.quantity, mealsNote(item.note, mealsOf(item.task)));
  }
  await repo.insertToGet(
    trx,
    user.id,
    plan.inserts.map((insert) => ({ task: insert.task, quantity: insert.quantity, note: mealsNote(null, mealsOf(insert.task)) })),
  );
  return { added: plan.inserts.length, merged: plan.updates.length };
}
