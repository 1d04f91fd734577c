import { rollDie, rollDice, sum } from '../dice.ts';
import { Draft } from '../draft.ts';
import { distance } from '../grid.ts';
import { MESSAGES, reject } from '../messages.ts';
import { findWeapon, inWeaponReach } from '../queries.ts';
import { canSpendAttacks, settleTurn, spendAttacks } from '../turn.ts';
import type { ApplyResult, AttackAction, GameState, Survivor } from '../types.ts';
import { done } from './result.ts';

/**
 * Weapon -> square -> target. Checked in that order: weapon, ammo, cost, range and sight, target.
 * Each shot of the burst uses one ammo, may be dodged (dodge die shows 1), else deals the sum of the
 * damage dice (+ point-blank bonus on the attacker's own tile). A kill gives the enemy's XP.
 */
export function attack(state: GameState, action: AttackAction, s: Survivor): ApplyResult {
  const weapon = findWeapon(s, action.weaponId);
  if (!weapon) return reject('unknown_weapon', MESSAGES.unknownWeapon);
  if (weapon.ammo !== null && weapon.ammo <= 0) return reject('out_of_ammo', MESSAGES.outOfAmmo);
  if (!canSpendAttacks(s, weapon.attackCost)) return reject('not_enough_actions', MESSAGES.notEnoughActions);
  if (!inWeaponReach(state, s, weapon, action.x, action.y)) return reject('out_of_range', MESSAGES.outOfRange);
  const target = state.enemies.find(
    (e) => e.x === action.x && e.y === action.y && (action.targetId === undefined || e.id === action.targetId),
  );
  if (!target) return reject('no_valid_targets', MESSAGES.noValidTargets);

  const d = new Draft(state);
  const w = d.survivor(s.id);
  spendAttacks(w, weapon.attackCost);
  let ammo = weapon.ammo;
  const bonus = distance(s.x, s.y, target.x, target.y) === 0 ? weapon.pointBlank : 0;
  let hp = target.hp;
  for (let shot = 0; shot < weapon.burst && hp > 0; shot++) {
    if (ammo !== null) {
      if (ammo <= 0) break;
      ammo -= 1;
    }
    if (rollDie(d.rng, target.dodgeDie) === 1) {
      d.emit({ type: 'dodged', actorId: target.id, attackerId: w.id, x: target.x, y: target.y });
      continue;
    }
    const rolls = rollDice(d.rng, weapon.damageDice);
    const damage = sum(rolls) + bonus;
    d.emit({
      type: 'attacked',
      attackerId: w.id,
      targetId: target.id,
      weaponId: weapon.id,
      fromX: w.x,
      fromY: w.y,
      x: target.x,
      y: target.y,
      rolls,
      damage,
    });
    if (damage <= 0) continue;
    hp -= damage;
    d.emit({ type: 'damaged', actorId: target.id, amount: damage, hp, x: target.x, y: target.y });
  }
  if (ammo !== weapon.ammo) {
    const inventory = d.inventory(w);
    const index = inventory.findIndex((it) => it.id === weapon.id);
    inventory[index] = { ...weapon, ammo };
  }
  if (hp !== target.hp) {
    if (hp <= 0) {
      const enemies = d.enemies();
      enemies.splice(enemies.indexOf(target), 1);
      d.emit({ type: 'died', actorId: target.id, x: target.x, y: target.y });
      w.xp += target.xp;
      d.emit({ type: 'xp', survivorId: w.id, amount: target.xp, xp: w.xp });
    } else {
      d.enemy(target.id).hp = hp;
    }
  }
  settleTurn(d);
  return done(d);
}
