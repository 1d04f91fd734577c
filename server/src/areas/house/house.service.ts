import { compareHouse, houseMessages, type AddHouseInput, type CompleteHouseInput, type HouseTask } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import * as repo from './house.repository.ts';

/** Completed tasks stay in the answer this long (sorted last), so the list does not grow for ever. */
export const COMPLETED_SHOWN_DAYS = 30;

/** The shared house list, readable by anyone: To Do, To Get, then recently completed, oldest first. */
export async function list(deps: AppDeps): Promise<HouseTask[]> {
  const since = new Date(Date.now() - COMPLETED_SHOWN_DAYS * 24 * 3600_000);
  const rows = await repo.listTasks(deps.db, since);
  return rows.sort(compareHouse);
}

export function add(deps: AppDeps, user: SessionUser, input: AddHouseInput): Promise<HouseTask> {
  return repo.insertTask(deps.db, user.id, input.task, input.type);
}

export function complete(deps: AppDeps, user: SessionUser, input: CompleteHouseInput): Promise<HouseTask> {
  return deps.db.transaction().execute(async (trx) => {
    const task = await repo.findTask(trx, input.id);
    if (!task) throw new AppError('NOT_FOUND', houseMessages.notFound);
    if (task.status === 'Complete') throw new AppError('CONFLICT', houseMessages.alreadyComplete);
    return repo.completeTask(trx, user.id, input.id);
  });
}
