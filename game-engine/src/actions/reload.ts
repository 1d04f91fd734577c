import { Draft } from '../draft.ts';
import { MESSAGES, reject } from '../messages.ts';
import { canSpendAttacks, settleTurn, spendAttacks } from '../turn.ts';
import type { ApplyResult, GameState, ReloadAction, Survivor } from '../types.ts';
import { done } from './result.ts';

/** Reload is a quick attack that refills the weapon's ammo. */
export function reload(state: GameState, action: ReloadAction, s: Survivor): ApplyResult {
  const item = s.inventory.find((it) => it.id === action.itemId);
  if (!item) return reject('unknown_item', MESSAGES.unknownItem);
  if (item.kind !== 'weapon' || item.ammo === null || item.ammoMax === null) {
    return reject('not_reloadable', MESSAGES.notReloadable);
  }
  if (item.ammo >= item.ammoMax) return reject('ammo_full', MESSAGES.ammoFull);
  if (!canSpendAttacks(s, 1)) return reject('not_enough_actions', MESSAGES.notEnoughActions);
  const d = new Draft(state);
  const w = d.survivor(s.id);
  spendAttacks(w, 1);
  const inventory = d.inventory(w);
  inventory[inventory.indexOf(item)] = { ...item, ammo: item.ammoMax };
  d.emit({ type: 'reloaded', survivorId: w.id, itemId: item.id, ammo: item.ammoMax });
  settleTurn(d);
  return done(d);
}
