import { Draft } from '../draft.ts';
import { MESSAGES, reject } from '../messages.ts';
import { hasActionsLeft, nextWithActions } from '../turn.ts';
import type { ApplyResult, CycleAction, GameState, SelectAction } from '../types.ts';
import { done } from './result.ts';

/** Makes a survivor with actions left the active one. No cost. */
export function select(state: GameState, action: SelectAction): ApplyResult {
  const target = state.survivors.find((s) => s.id === action.survivorId);
  if (!target) return reject('unknown_survivor', MESSAGES.unknownSurvivor);
  if (!hasActionsLeft(target)) return reject('no_actions_left', MESSAGES.noActionsLeft);
  if (target.id === state.activeSurvivorId) return { ok: true, state, events: [] };
  const d = new Draft(state);
  d.state.activeSurvivorId = target.id;
  d.emit({ type: 'selected', survivorId: target.id });
  return done(d);
}

/** '<' and '>': the previous or next survivor with actions left (the active one when it is alone). */
export function cycle(state: GameState, action: CycleAction): ApplyResult {
  const index = state.survivors.findIndex((s) => s.id === state.activeSurvivorId);
  const next = nextWithActions(state.survivors, index < 0 ? -1 : index, action.direction);
  if (!next) return reject('no_active_survivor', MESSAGES.noActiveSurvivor);
  return select(state, { type: 'select', survivorId: next.id });
}
