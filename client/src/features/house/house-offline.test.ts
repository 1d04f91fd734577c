import { describe, expect, it } from 'vitest';
import type { HouseTask } from '@site/contracts/house';
import type { QueuedChange } from '../../lib/offline-queue.ts';
import { describeHouseOutcome, overlayHouse } from './house-offline.ts';

const task = (id: number, name: string, status: HouseTask['status'] = 'To Get'): HouseTask => ({
  id,
  task: name,
  status,
  type: status === 'Complete' ? 'To Get' : status,
  quantity: null,
  note: null,
  repeatDays: null,
  dueAt: null,
  completedAt: status === 'Complete' ? '2026-11-24T10:00:00.000Z' : null,
});
const queued = (procedure: QueuedChange['procedure'], label: string, input: Record<string, unknown>): QueuedChange => ({
  clientId: `id-${label}-${procedure}`,
  account: 'ann',
  procedure,
  input,
  label,
  createdAt: 1,
});
const NOW = Date.parse('2026-11-24T12:00:00.000Z');

describe('house overlay of waiting changes', () => {
  it('shows a waiting add on its list, a waiting completion under done and a waiting undo back on its list, marked', () => {
    const shown = overlayHouse(
      [task(1, 'Milk'), task(2, 'Bread', 'Complete'), task(3, 'Eggs')],
      [queued('house.add', 'Soap', { task: 'Soap', type: 'To Get', quantity: ' 2 ', note: '' }), queued('house.complete', 'Milk', { id: 1 }), queued('house.undo', 'Bread', { id: 2 })],
      NOW,
    );
    expect(shown.map((t) => [t.id, t.task, t.status, t.quantity, t.waiting ?? false])).toEqual([
      [1, 'Milk', 'Complete', null, true],
      [2, 'Bread', 'To Get', null, true],
      [3, 'Eggs', 'To Get', null, false],
      [-1, 'Soap', 'To Get', '2', true],
    ]);
    expect(shown[0]?.completedAt).toBe(new Date(NOW).toISOString());
  });

  it('keeps a task completed meanwhile by someone else completed once, with its own time', () => {
    const shown = overlayHouse([task(2, 'Bread', 'Complete')], [queued('house.complete', 'Bread', { id: 2 })], NOW);
    expect(shown).toEqual([{ ...task(2, 'Bread', 'Complete'), waiting: true }]);
  });

  it('ignores a change to a task no longer listed', () => {
    expect(overlayHouse([], [queued('house.complete', 'Gone', { id: 7 })], NOW)).toEqual([]);
  });
});

describe('house conflict messages', () => {
  const complete = queued('house.complete', 'Milk', { id: 1 });
  it('tells that the completion already held, by whom', () => {
    expect(describeHouseOutcome(complete, { kind: 'applied', result: { ...task(1, 'Milk', 'Complete'), conflict: 'alreadyComplete', byOther: true } }, true)).toBe(
      'Milk was already completed by another member.',
    );
    expect(describeHouseOutcome(complete, { kind: 'applied', result: { ...task(1, 'Milk', 'Complete'), conflict: 'alreadyComplete', byOther: false } }, true)).toBe(
      'Milk was already completed on another device.',
    );
    expect(describeHouseOutcome(complete, { kind: 'applied', result: task(1, 'Milk', 'Complete') }, true)).toBeNull();
  });
  it('tells that an undo already held, that both adds are kept, and why a change was refused', () => {
    expect(describeHouseOutcome(queued('house.undo', 'Milk', { id: 1 }), { kind: 'applied', result: { ...task(1, 'Milk'), conflict: 'alreadyOpen' } }, true)).toBe(
      'Milk was already put back on the list meanwhile.',
    );
    const add = queued('house.add', 'Milk', { task: 'Milk', type: 'To Get' });
    expect(describeHouseOutcome(add, { kind: 'applied', result: { ...task(4, 'Milk'), conflict: 'alsoOnList' } }, true)).toBe(
      'Milk was already on the To Get list, added meanwhile: both are kept.',
    );
    expect(describeHouseOutcome(add, { kind: 'applied', result: { ...task(4, 'Milk'), conflict: 'alsoOnList' } }, false)).toBeNull();
    expect(describeHouseOutcome(complete, { kind: 'refused', message: 'No such house task' }, true)).toBe('Milk was not completed: No such house task');
  });
});
