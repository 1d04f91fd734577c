import { Draft } from '../draft.ts';
import { MESSAGES, reject } from '../messages.ts';
import type { ApplyResult, DropAction, GameState, Survivor } from '../types.ts';
import { done } from './result.ts';

/** Puts a carried item on the survivor's tile (free). */
export function drop(state: GameState, action: DropAction, s: Survivor): ApplyResult {
  const item = s.inventory.find((it) => it.id === action.itemId);
  if (!item) return reject('unknown_item', MESSAGES.unknownItem);
  const d = new Draft(state);
  const w = d.survivor(s.id);
  w.inventory = w.inventory.filter((it) => it !== item);
  d.items().push({ ...item, x: s.x, y: s.y });
  d.emit({ type: 'dropped', survivorId: s.id, itemId: item.id, x: s.x, y: s.y });
  return done(d);
}
