import { describe, expect, it } from 'vitest';
import type { QueuedChange } from '../../lib/offline-queue.ts';
import { describeTodoOutcome, overlayTodo } from './todo-offline.ts';

const queued = (procedure: QueuedChange['procedure'], label: string, input: Record<string, unknown>): QueuedChange => ({
  clientId: `id-${label}`,
  account: 'ann',
  procedure,
  input,
  label,
  createdAt: 1,
});

describe('todo overlay of waiting changes', () => {
  it('shows a waiting add as Active, a waiting status change with its status, and hides a waiting Delete', () => {
    const shown = overlayTodo(
      [
        { id: 1, task: 'Call the bank', status: 'Active' },
        { id: 2, task: 'Old', status: 'Inactive' },
        { id: 3, task: 'Keep', status: 'Active' },
      ],
      [queued('todo.update', 'Call the bank', { id: 1, status: 'complete' }), queued('todo.update', 'Old', { id: 2, status: 'Delete' }), queued('todo.add', 'New', { task: 'New' })],
    );
    expect(shown).toEqual([
      { id: 1, task: 'Call the bank', status: 'Completed', waiting: true },
      { id: 3, task: 'Keep', status: 'Active' },
      { id: -1, task: 'New', status: 'Active', waiting: true },
    ]);
  });
});

describe('todo conflict messages', () => {
  const done = queued('todo.update', 'Call the bank', { id: 1, status: 'Complete', seen: 'Active' });
  it('tells that a task changed meanwhile on another device took this change anyway', () => {
    expect(describeTodoOutcome(done, { kind: 'applied', result: { id: 1, task: 'Call the bank', status: 'Completed', was: 'Inactive' } })).toBe(
      'Call the bank was changed to Inactive on another device; your change to Completed was applied.',
    );
    expect(describeTodoOutcome(done, { kind: 'applied', result: { id: 1, task: 'Call the bank', status: 'Completed' } })).toBeNull();
  });
  it('tells that a task deleted meanwhile could not be changed, and any other refusal', () => {
    expect(describeTodoOutcome(done, { kind: 'refused', message: 'No such task' })).toBe(
      'Call the bank was deleted on another device; your change to Completed could not be applied.',
    );
    expect(describeTodoOutcome(queued('todo.add', 'x', { task: 'x' }), { kind: 'refused', message: 'Task may not be empty' })).toBe('x was not added: Task may not be empty');
  });
});
