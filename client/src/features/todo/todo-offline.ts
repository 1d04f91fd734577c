import { parseTodoStatus, todoMessages, type TodoTask, type TodoUpdateResult } from '@site/contracts/todo';
import type { Outcome, QueuedChange } from '../../lib/offline-queue.ts';

/** A task as the page shows it: the server's, with the member's waiting changes laid over it. */
export type ShownTodoTask = TodoTask & { waiting?: boolean };

/**
 * The list as it will be once the waiting changes are sent, each changed row marked `waiting`: a
 * waiting add shows as Active (with a negative id, as it has none yet), a waiting status change shows
 * the new status, a waiting Delete hides the task.
 */
export function overlayTodo(tasks: TodoTask[], waiting: QueuedChange[]): ShownTodoTask[] {
  let shown: ShownTodoTask[] = tasks.map((t) => ({ ...t }));
  let nextId = -1;
  for (const change of waiting) {
    if (change.procedure === 'todo.add') {
      shown.push({ id: nextId--, task: change.label, status: 'Active', waiting: true });
      continue;
    }
    if (change.procedure !== 'todo.update') continue;
    const status = parseTodoStatus(String(change.input.status));
    if (status === 'Delete') shown = shown.filter((t) => t.id !== change.input.id);
    else if (status !== null) shown = shown.map((t) => (t.id === change.input.id ? { ...t, status, waiting: true } : t));
  }
  return shown;
}

/**
 * What to tell the member about a todo change's answer. A status change on a task changed meanwhile on
 * another device is applied (the last change wins) and says so; one on a task deleted meanwhile cannot
 * be, and says so.
 */
export function describeTodoOutcome(change: QueuedChange, outcome: Outcome): string | null {
  const name = change.label;
  const wanted = parseTodoStatus(String(change.input.status ?? ''));
  if (outcome.kind === 'refused') {
    if (change.procedure === 'todo.add') return `${name} was not added: ${outcome.message}`;
    if (outcome.message === todoMessages.notFound) return `${name} was deleted on another device; your change to ${wanted ?? change.input.status} could not be applied.`;
    return `${name} was not changed: ${outcome.message}`;
  }
  const result = outcome.result as TodoUpdateResult;
  if (change.procedure !== 'todo.update' || result.was === undefined) return null;
  return wanted === 'Delete'
    ? `${name} was changed to ${result.was} on another device; it was deleted as you asked.`
    : `${name} was changed to ${result.was} on another device; your change to ${result.status} was applied.`;
}
