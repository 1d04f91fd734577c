import type { ChoreChangeResult } from '@site/contracts/plan';
import type { Outcome, QueuedChange } from '../../lib/offline-queue.ts';

/** What to tell the member about a Done or Undo sent from the queue: someone did it meanwhile, or why it was refused. */
export function describeChoreOutcome(change: QueuedChange, outcome: Outcome): string | null {
  const name = change.label;
  if (outcome.kind === 'refused') return `${name} was not ${change.procedure === 'chores.done' ? 'marked done' : 'undone'}: ${outcome.message}`;
  const result = outcome.result as ChoreChangeResult;
  return result.conflict === 'alreadyDone' ? `${name} was already done meanwhile: it is counted once.` : null;
}

/** The chore ids with a change still waiting to be sent. */
export function waitingChores(waiting: QueuedChange[]): Set<number> {
  return new Set(waiting.map((c) => c.input.id).filter((id): id is number => typeof id === 'number'));
}
