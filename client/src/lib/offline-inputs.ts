import { addHouseInput, completeHouseInput, undoHouseInput } from '@site/contracts/house';
import { addTodoInput, updateTodoInput } from '@site/contracts/todo';
import { choreDoneInput, choreUndoInput } from '@site/contracts/plan';
import type { QueueProcedure } from './offline-queue.ts';

/**
 * Each queued procedure's input schema: a change is checked before it waits in the queue (the server
 * cannot check it yet). Its own chunk (zod and the schemas), loaded the first time a change must wait.
 */
export const QUEUE_INPUTS: Record<QueueProcedure, { safeParse(input: unknown): { error?: { issues: { message: string }[] } } }> = {
  'house.add': addHouseInput,
  'house.complete': completeHouseInput,
  'house.undo': undoHouseInput,
  'todo.add': addTodoInput,
  'todo.update': updateTodoInput,
  'chores.done': choreDoneInput,
  'chores.undo': choreUndoInput,
};
