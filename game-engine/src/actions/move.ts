import { Draft } from '../draft.ts';
import { gridOfState, inBounds, isPassable, stepCost } from '../grid.ts';
import { MESSAGES, reject } from '../messages.ts';
import { canSpendMoves, settleTurn, spendMoves } from '../turn.ts';
import type { ApplyResult, GameState, MoveAction, Survivor } from '../types.ts';
import { done } from './result.ts';

/** Steps to an adjacent passable tile, converting whole actions into moves when needed. */
export function move(state: GameState, action: MoveAction, s: Survivor): ApplyResult {
  const grid = gridOfState(state);
  if (!inBounds(grid, action.x, action.y) || Math.abs(action.x - s.x) + Math.abs(action.y - s.y) !== 1) {
    return reject('not_adjacent', MESSAGES.notAdjacent);
  }
  if (!isPassable(grid, action.x, action.y)) return reject('impassable', MESSAGES.impassable);
  const cost = stepCost(grid, action.x, action.y);
  if (!canSpendMoves(s, cost)) return reject('not_enough_actions', MESSAGES.notEnoughActions);
  const d = new Draft(state);
  const w = d.survivor(s.id);
  spendMoves(w, cost);
  w.x = action.x;
  w.y = action.y;
  d.emit({ type: 'stepped', actorId: w.id, fromX: s.x, fromY: s.y, x: w.x, y: w.y });
  settleTurn(d);
  return done(d);
}
