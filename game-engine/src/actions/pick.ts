import { Draft } from '../draft.ts';
import { MESSAGES, reject } from '../messages.ts';
import type { ApplyResult, GameState, PickAction, Survivor } from '../types.ts';
import { done } from './result.ts';
import { rulesOf } from '../rules.ts';

/** Picks up an item lying on the survivor's own tile (free). */
export function pick(state: GameState, action: PickAction, s: Survivor): ApplyResult {
  const item = state.items.find((it) => it.id === action.itemId);
  if (!item) return reject('unknown_item', MESSAGES.unknownItem);
  if (item.x !== s.x || item.y !== s.y) return reject('too_far', MESSAGES.tooFar);
  if (s.inventory.length >= rulesOf(state).survivor.inventorySize) return reject('inventory_full', MESSAGES.inventoryFull);
  const d = new Draft(state);
  const w = d.survivor(s.id);
  d.state.items = state.items.filter((it) => it !== item);
  w.inventory = [...w.inventory, { ...item, x: null, y: null }];
  d.emit({ type: 'picked', survivorId: s.id, itemId: item.id, x: s.x, y: s.y });
  return done(d);
}
