import { makeWeapon } from '../catalogue.ts';
import { Draft } from '../draft.ts';
import { MESSAGES, reject } from '../messages.ts';
import type { ApplyResult, AugmentAction, GameState, Survivor } from '../types.ts';
import { done } from './result.ts';

/** Installs an augment for its XP cost (no action). Ocular lasers add an unarmed weapon. */
export function augment(state: GameState, action: AugmentAction, s: Survivor): ApplyResult {
  const found = s.augments.find((a) => a.id === action.augmentId);
  if (!found) return reject('unknown_augment', MESSAGES.unknownAugment);
  if (found.installed) return reject('already_installed', MESSAGES.alreadyInstalled);
  if (s.xp < found.cost) return reject('not_enough_xp', MESSAGES.notEnoughXp);
  const d = new Draft(state);
  const w = d.survivor(s.id);
  w.xp -= found.cost;
  w.augments = w.augments.map((a) => (a === found ? { ...a, installed: true } : a));
  if (found.id === 'ocularLasers') w.unarmed = [...w.unarmed, makeWeapon('ocularLasers', d.newId('i'), state.rules)];
  d.emit({ type: 'augmented', survivorId: w.id, augmentId: found.id });
  return done(d);
}
