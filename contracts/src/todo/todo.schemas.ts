import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { NAMED_ISSUE, text } from '../text.ts';
import { clientChangeId } from '../client-change.ts';
import { TODO_STATUSES, TODO_TASK_MAX, parseTodoStatus, todoMessages, type TodoStatus } from './todo.rules.ts';

export const todoTaskText = text({ label: 'Task', max: TODO_TASK_MAX, trim: true, min: 1 });
export const todoId = rowId(todoMessages.badId);

/** The status as typed, checked against the five words with the spec's exact message. */
const todoStatusWord = z
  .string({ error: 'Status must be text' })
  .max(40, { error: 'Status may be at most 40 characters' })
  .transform((entered, ctx) => {
    const status = parseTodoStatus(entered);
    if (status === null) {
      ctx.addIssue({ code: 'custom', message: todoMessages.invalidStatus(entered), params: NAMED_ISSUE });
      return z.NEVER;
    }
    return status;
  });

export const todoTask = z.object({ id: z.number(), task: z.string(), status: z.enum(TODO_STATUSES) });
export type TodoTask = z.infer<typeof todoTask>;

export const addTodoInput = z.object({ task: todoTaskText, clientId: clientChangeId.optional() });
export type AddTodoInput = z.infer<typeof addTodoInput>;

/** A change of one task: its status (Delete removes it for good) and, when given, its text. */
export const updateTodoInput = z.object({
  id: todoId,
  task: todoTaskText.optional(),
  status: todoStatusWord,
  clientId: clientChangeId.optional(),
  /** The status the member saw when making the change (sent by the offline queue), to tell them when it changed meanwhile. */
  seen: z.enum(TODO_STATUSES, { error: todoMessages.badSeen }).optional(),
});
export type UpdateTodoInput = z.infer<typeof updateTodoInput>;

/** The task after the change; a deleted task is reported as it was, with status 'Deleted'. */
export type TodoUpdateResult = {
  id: number;
  task: string;
  status: TodoStatus | 'Deleted';
  /** Set when `seen` was given and the task's status had changed meanwhile (on another device): the status it had. The change is applied anyway (last write wins). */
  was?: TodoStatus;
};
