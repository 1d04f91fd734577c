import { upgradeWeapon } from '../catalogue.ts';
import { makeSurvivor } from '../create.ts';
import { Draft } from '../draft.ts';
import { distance } from '../grid.ts';
import { loadFloor } from '../floor-loader.ts';
import { MESSAGES, reject } from '../messages.ts';
import { settleTurn } from '../turn.ts';
import type { ApplyResult, GameState, Interactible, InteractAction, Survivor, Weapon } from '../types.ts';
import { done } from './result.ts';
import { rulesOf } from '../rules.ts';

/** Uses an interactible on the survivor's tile or an adjacent one (the stairs: on the tile). */
export function interact(state: GameState, action: InteractAction, s: Survivor): ApplyResult {
  const target = state.interactibles.find((i) => i.id === action.targetId);
  if (!target) return reject('nothing_to_do', MESSAGES.nothingToDo);
  if (distance(target.x, target.y, s.x, s.y) > 1) return reject('too_far', MESSAGES.tooFar);
  switch (target.kind) {
    case 'entrance':
      return reject('no_going_back', MESSAGES.noGoingBack);
    case 'cryochamber':
      return openCryochamber(state, action, s, target);
    case 'upgradeStation':
      return useUpgradeStation(state, action, s);
    case 'stairs':
      return takeStairs(state, s, target);
    default:
      return reject('nothing_to_do', MESSAGES.nothingToDo);
  }
}

/** A name not used by any survivor: the letter i is appended until it is unique. */
export function uniqueName(state: GameState, wanted: string | undefined): string {
  let name = wanted?.trim() || 'Survivor';
  while (state.survivors.some((s) => s.name === name)) name += 'i';
  return name;
}

function openCryochamber(state: GameState, action: InteractAction, s: Survivor, chamber: Interactible): ApplyResult {
  if (s.actions < 1) return reject('cryochamber_needs_action', MESSAGES.cryochamberNeedsAction);
  const d = new Draft(state);
  const w = d.survivor(s.id);
  w.actions -= 1;
  const interactibles = d.interactibles();
  interactibles[interactibles.indexOf(chamber)] = { ...chamber, kind: 'brokenCryochamber', name: 'Broken cryochamber' };
  const sleeper = makeSurvivor(d, uniqueName(state, action.name), [], chamber.x, chamber.y);
  d.survivors().push(sleeper);
  d.emit({ type: 'opened', interactibleId: chamber.id, survivorId: sleeper.id });
  d.emit({ type: 'joined', survivorId: sleeper.id, name: sleeper.name, x: sleeper.x, y: sleeper.y });
  settleTurn(d);
  return done(d);
}

function useUpgradeStation(state: GameState, action: InteractAction, s: Survivor): ApplyResult {
  const weapon = s.inventory.find(
    (it): it is Weapon =>
      it.kind === 'weapon' && it.upgradable && !it.upgraded && (action.weaponId === undefined || it.id === action.weaponId),
  );
  if (!weapon) return reject('no_upgradable_weapon', MESSAGES.noUpgradableWeapon);
  const price = rulesOf(state).upgradeXp;
  if (s.xp < price) return reject('not_enough_xp', MESSAGES.notEnoughXp);
  if (s.actions < 1) return reject('not_enough_actions', MESSAGES.notEnoughActions);
  const d = new Draft(state);
  const w = d.survivor(s.id);
  w.actions -= 1;
  w.xp -= price;
  const inventory = d.inventory(w);
  inventory[inventory.indexOf(weapon)] = upgradeWeapon(weapon);
  d.emit({ type: 'upgraded', survivorId: w.id, itemId: weapon.id });
  settleTurn(d);
  return done(d);
}

function takeStairs(state: GameState, s: Survivor, stairs: Interactible): ApplyResult {
  if (s.x !== stairs.x || s.y !== stairs.y) return reject('too_far', MESSAGES.tooFar);
  if (s.actions < 1) return reject('not_enough_actions', MESSAGES.notEnoughActions);
  const onStairs = (v: Survivor): boolean => v.x === stairs.x && v.y === stairs.y;
  // Downed survivors (hp 0) cannot walk; they are carried only if they already lie on the stairs.
  if (state.survivors.some((v) => v.hp > 0 && !onStairs(v))) {
    return reject('not_all_on_stairs', MESSAGES.notAllOnStairs);
  }
  const d = new Draft(state);
  d.survivor(s.id).actions -= 1;
  const kept = d.state.survivors.filter(onStairs);
  const nextIndex = state.levelIndex + 1;
  const next = state.levels[nextIndex];
  if (!next) {
    d.state.survivors = kept;
    d.state.status = 'won';
    d.state.activeSurvivorId = null;
    d.emit({ type: 'won', round: state.round });
    return done(d);
  }
  loadFloor(d, nextIndex, kept);
  d.emit({ type: 'levelled', levelIndex: nextIndex, levelId: next.id, name: next.name });
  settleTurn(d);
  return done(d);
}
