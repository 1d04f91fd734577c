import type { Rejection, RejectionCode } from './types.ts';

/** Player-facing messages. The first eight are the spec's exact strings. */
export const MESSAGES = {
  notEnoughActions: 'Not enough actions - do something else or pass turn',
  outOfAmmo: 'Your weapon is out of ammo, reload it through the inventory tab or select a different weapon',
  noValidTargets: 'There are no valid targets in this square',
  nothingToLookAt: 'Try looking at something interesting',
  cryochamberNeedsAction: 'An action is required to open this cryochamber',
  nothingToDo: "There's nothing to do here.",
  noGoingBack: 'Why would you go back there?',
  noUpgradableWeapon: 'You need to have an upgradable weapon',
  // Not in the spec; worded in the same voice.
  gameOver: 'The game is over',
  wrongPhase: 'Wait for the enemies to finish their turn',
  noActiveSurvivor: 'No survivor can act right now',
  notActiveSurvivor: "It is not that survivor's turn - select it first",
  unknownSurvivor: 'There is no such survivor',
  noActionsLeft: 'That survivor has no actions left',
  notAdjacent: 'You can only move to an adjacent tile',
  impassable: "You can't move there",
  unknownWeapon: "You don't have that weapon",
  outOfRange: 'That square is out of range or out of sight',
  unknownItem: "You don't have that item",
  notReloadable: "That item doesn't need reloading",
  ammoFull: 'Your weapon is already fully loaded',
  inventoryFull: 'Your inventory is full - drop something first',
  tooFar: 'That is too far away',
  notEnoughXp: 'Not enough XP - kill more monsters first',
  notAllOnStairs: 'Everyone has to stand on the stairs first',
  unknownAugment: 'There is no such augment',
  alreadyInstalled: 'That augment is already installed',
} as const;

export function reject(code: RejectionCode, message: string): Rejection {
  return { ok: false, code, message };
}
