import { compareTodo, todoMessages, type AddTodoInput, type TodoTask, type TodoUpdateResult, type UpdateTodoInput } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { applyOnce } from '../../client-changes/client-changes.ts';
import * as repo from './todo.repository.ts';

/** The member's own tasks, Abandoned ones included (the page hides them), in the spec's order. */
export async function list(deps: AppDeps, user: SessionUser): Promise<TodoTask[]> {
  const rows = await repo.listTasks(deps.db, user.id);
  return rows.sort(compareTodo);
}

/** Adds a task; sent with a client id (queued offline), once however often it is sent. */
export function add(deps: AppDeps, user: SessionUser, input: AddTodoInput): Promise<TodoTask> {
  return applyOnce(deps.db, user.id, 'todo.add', input.clientId, (trx) => repo.insertTask(trx, user.id, input.task));
}

/**
 * Sets a task's status (and text, when given); 'Delete' removes it for good. Another member's task
 * answers exactly as a missing one does, so ids reveal nothing. Sent with a client id, it applies once
 * however often it is sent. Given the status the member saw, a task changed meanwhile (another device)
 * still takes this change (the last write wins) and the answer says what it was (`was`), so the member
 * is told.
 */
export function update(deps: AppDeps, user: SessionUser, input: UpdateTodoInput): Promise<TodoUpdateResult> {
  return applyOnce(deps.db, user.id, 'todo.update', input.clientId, async (trx) => {
    const before = input.seen === undefined ? undefined : await repo.findTask(trx, user.id, input.id);
    const was = before !== undefined && before.status !== input.seen ? { was: before.status } : {};
    if (input.status === 'Delete') {
      const gone = await repo.deleteTask(trx, user.id, input.id);
      if (!gone) throw new AppError('NOT_FOUND', todoMessages.notFound);
      return { ...gone, status: 'Deleted', ...was };
    }
    const changes = input.task === undefined ? { status: input.status } : { status: input.status, task: input.task };
    const updated = await repo.updateTask(trx, user.id, input.id, changes);
    if (!updated) throw new AppError('NOT_FOUND', todoMessages.notFound);
    return { ...updated, ...was };
  });
}
