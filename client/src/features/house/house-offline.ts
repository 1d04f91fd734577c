import type { HouseChangeResult, HouseTask, HouseType } from '@site/contracts/house';
import type { Outcome, QueuedChange } from '../../lib/offline-queue.ts';

/** A task as the page shows it: the server's, with the member's waiting changes laid over it. */
export type ShownHouseTask = HouseTask & { waiting?: boolean };

/**
 * The list as it will be once the waiting changes are sent, each changed row marked `waiting`: a
 * waiting add shows on its list (with a negative id, as it has none yet), a waiting completion moves the
 * task to Recently done, a waiting undo puts it back. A task someone else completed meanwhile stays
 * completed once; a change to a task gone from the list shows nothing.
 */
export function overlayHouse(tasks: HouseTask[], waiting: QueuedChange[], now: number): ShownHouseTask[] {
  const shown: ShownHouseTask[] = tasks.map((t) => ({ ...t }));
  let nextId = -1;
  for (const change of waiting) {
    const input = change.input;
    if (change.procedure === 'house.add') {
      const type: HouseType = input.type === 'To Get' ? 'To Get' : 'To Do';
      const text = (key: string) => (typeof input[key] === 'string' && (input[key] as string).trim() !== '' ? (input[key] as string).trim() : null);
      shown.push({
        id: nextId--,
        task: change.label,
        status: type,
        type,
        quantity: text('quantity'),
        note: text('note'),
        repeatDays: typeof input.repeatDays === 'number' ? input.repeatDays : null,
        dueAt: null,
        completedAt: null,
        waiting: true,
      });
      continue;
    }
    const task = shown.find((t) => t.id === input.id);
    if (!task) continue;
    if (change.procedure === 'house.complete') {
      if (task.status !== 'Complete') Object.assign(task, { status: 'Complete', completedAt: new Date(now).toISOString() });
      task.waiting = true;
    } else if (change.procedure === 'house.undo') {
      Object.assign(task, { status: task.type, completedAt: null, waiting: true });
    }
  }
  return shown;
}

/**
 * What to tell the member about a house change's answer: what it met meanwhile (the completion or the
 * undo already holds; the same item was already on the list and both are kept) or why it was refused.
 */
export function describeHouseOutcome(change: QueuedChange, outcome: Outcome, queued: boolean): string | null {
  const name = change.label;
  if (outcome.kind === 'refused') {
    const what = change.procedure === 'house.add' ? 'added' : change.procedure === 'house.complete' ? 'completed' : 'put back';
    return `${name} was not ${what}: ${outcome.message}`;
  }
  const result = outcome.result as HouseChangeResult;
  switch (result.conflict) {
    case 'alreadyComplete':
      return result.byOther ? `${name} was already completed by another member.` : `${name} was already completed on another device.`;
    case 'alreadyOpen':
      return `${name} was already put back on the list meanwhile.`;
    case 'alsoOnList':
      return queued ? `${name} was already on the ${result.type} list, added meanwhile: both are kept.` : null;
    default:
      return null;
  }
}
