import { describe, expect, it } from 'vitest';
import type { QueuedChange } from '../../lib/offline-queue.ts';
import { describeChoreOutcome, waitingChores } from './chores-offline.ts';

const change = (procedure: 'chores.done' | 'chores.undo', id: number): QueuedChange => ({
  clientId: `c-${id}`,
  account: 'anna',
  procedure,
  input: { id, clientId: `c-${id}` },
  label: 'Dishes',
  createdAt: 0,
});

describe('chores changes sent from the offline queue', () => {
  it('tells a Done someone made meanwhile and a refusal, and nothing for a plain answer', () => {
    expect(describeChoreOutcome(change('chores.done', 1), { kind: 'applied', result: { id: 1, conflict: 'alreadyDone' } })).toBe('Dishes was already done meanwhile: it is counted once.');
    expect(describeChoreOutcome(change('chores.done', 1), { kind: 'applied', result: { id: 1 } })).toBeNull();
    expect(describeChoreOutcome(change('chores.undo', 1), { kind: 'refused', message: 'That chore has not been done yet' })).toBe('Dishes was not undone: That chore has not been done yet');
    expect(describeChoreOutcome(change('chores.done', 1), { kind: 'refused', message: 'No such chore' })).toBe('Dishes was not marked done: No such chore');
  });

  it('lists the chores with a change waiting', () => {
    expect([...waitingChores([change('chores.done', 3), change('chores.undo', 5)])].sort()).toEqual([3, 5]);
  });
});
