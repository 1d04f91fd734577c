import { compareTodo, todoMessages, type AddTodoInput, type TodoTask, type TodoUpdateResult, type UpdateTodoInput } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import * as repo from './todo.repository.ts';

/** The member's own tasks, Abandoned ones included (the page hides them), in the spec's order. */
export async function list(deps: AppDeps, user: SessionUser): Promise<TodoTask[]> {
  const rows = await repo.listTasks(deps.db, user.id);
  return rows.sort(compareTodo);
}

export function add(deps: AppDeps, user: SessionUser, input: AddTodoInput): Promise<TodoTask> {
  return repo.insertTask(deps.db, user.id, input.task);
}

/**
 * Sets a task's status (and text, when given); 'Delete' removes it for good. Another member's task
 * answers exactly as a missing one does, so ids reveal nothing.
 */
export async function update(deps: AppDeps, user: SessionUser, input: UpdateTodoInput): Promise<TodoUpdateResult> {
  if (input.status === 'Delete') {
    const gone = await repo.deleteTask(deps.db, user.id, input.id);
    if (!gone) throw new AppError('NOT_FOUND', todoMessages.notFound);
    return { ...gone, status: 'Deleted' };
  }
  const changes = input.task === undefined ? { status: input.status } : { status: input.status, task: input.task };
  const updated = await repo.updateTask(deps.db, user.id, input.id, changes);
  if (!updated) throw new AppError('NOT_FOUND', todoMessages.notFound);
  return updated;
}
