/*
 * The todo list's words, limits, messages and orderings: plain values without zod, so a page loads
 * them without the schemas (todo.schemas.ts), which the offline queue loads when a change must wait.
 */

/** The stored states of a member's task, in the order the list shows them. */
export const TODO_STATUSES = ['Active', 'Inactive', 'Completed', 'Abandoned'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export const TODO_TASK_MAX = 500;

export const todoMessages = {
  invalidStatus: (entered: string) => `${entered} is not a valid status.`,
  notFound: 'No such task',
  badId: 'A task is named by its id, a whole number',
  badSeen: 'Seen must be a status',
} as const;

/**
 * What a member may type into the status prompt: the five words in any case. 'Complete' and
 * 'Completed' both mean the one stored state; 'Delete' removes the task. Anything else is null.
 */
export function parseTodoStatus(entered: string): TodoStatus | 'Delete' | null {
  switch (entered.trim().toLowerCase()) {
    case 'active':
      return 'Active';
    case 'inactive':
      return 'Inactive';
    case 'complete':
    case 'completed':
      return 'Completed';
    case 'abandoned':
      return 'Abandoned';
    case 'delete':
      return 'Delete';
    default:
      return null;
  }
}

/** Active, Inactive, Completed, Abandoned, then oldest first (ids grow with time). */
export function compareTodo(a: { status: TodoStatus; id: number }, b: { status: TodoStatus; id: number }): number {
  return TODO_STATUSES.indexOf(a.status) - TODO_STATUSES.indexOf(b.status) || a.id - b.id;
}
