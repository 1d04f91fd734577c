import { describe, expect, it } from 'vitest';
import { compareTodo, parseTodoStatus } from './todo.rules.ts';
import { updateTodoInput } from './todo.schemas.ts';

describe('parseTodoStatus', () => {
  it('accepts the five words in any case, Complete and Completed as one', () => {
    expect(['active', 'INACTIVE', 'Complete', 'completed', 'aBaNdOnEd', 'Delete'].map(parseTodoStatus)).toEqual([
      'Active',
      'Inactive',
      'Completed',
      'Completed',
      'Abandoned',
      'Delete',
    ]);
    expect(parseTodoStatus('done')).toBeNull();
  });
  it('answers anything else with the exact message', () => {
    const r = updateTodoInput.safeParse({ id: 1, status: 'Finished' });
    expect(r.error?.issues[0]?.message).toBe('Finished is not a valid status.');
  });
  it('sorts Active, Inactive, Completed, Abandoned, then oldest first', () => {
    const tasks = [
      { id: 1, status: 'Abandoned' as const },
      { id: 2, status: 'Completed' as const },
      { id: 5, status: 'Active' as const },
      { id: 3, status: 'Active' as const },
      { id: 4, status: 'Inactive' as const },
    ];
    expect(tasks.sort(compareTodo).map((t) => t.id)).toEqual([3, 5, 4, 2, 1]);
  });
});
