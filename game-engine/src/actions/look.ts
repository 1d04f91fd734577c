import { MESSAGES, reject } from '../messages.ts';
import { canSee, thingsAt } from '../queries.ts';
import type { ApplyResult, GameState, LookAction, Survivor } from '../types.ts';

/** Lists what is on a visible tile, at no cost. The state is returned unchanged. */
export function look(state: GameState, action: LookAction, s: Survivor): ApplyResult {
  const things = canSee(state, s, action.x, action.y) ? thingsAt(state, action.x, action.y) : [];
  if (things.length === 0) return reject('nothing_to_look_at', MESSAGES.nothingToLookAt);
  return { ok: true, state, events: [{ type: 'looked', x: action.x, y: action.y, things }] };
}
