import { Draft } from '../draft.ts';
import { settleTurn } from '../turn.ts';
import type { ApplyResult, GameState, PassAction, Survivor } from '../types.ts';
import { done } from './result.ts';

/** Forfeits the survivor's remaining actions, leftover moves and quick attacks. */
export function pass(state: GameState, _action: PassAction, s: Survivor): ApplyResult {
  const d = new Draft(state);
  const w = d.survivor(s.id);
  w.actions = 0;
  w.moveActions = 0;
  w.attackActions = 0;
  d.emit({ type: 'passed', survivorId: w.id });
  settleTurn(d);
  return done(d);
}
