import { describe, expect, it } from 'vitest';
import { apply, MESSAGES, targetsAt, targetSquares } from '../src/index.ts';
import type { GameState, Weapon } from '../src/index.ts';
import { addEnemy, arenaGame, expectOk, expectRejected, fixedDie, patchSurvivor, survivor } from './helpers.ts';

function revolverOf(state: GameState): Weapon {
  const w = survivor(state).inventory[0];
  if (!w || w.kind !== 'weapon') throw new Error('no revolver');
  return w;
}

/** Ada with a revolver whose damage die is forced to `damage`. */
function armed(state: GameState, damage: number, patch: Partial<Weapon> = {}): GameState {
  const revolver = { ...revolverOf(state), damageDice: [fixedDie(damage)], ...patch };
  return patchSurvivor(state, 0, { inventory: [revolver] });
}

const noDodge = { dodgeDie: fixedDie(0) };

describe('attack', () => {
  it('kills a drone in range, spends ammo and attack cost, and gives XP to the killer', () => {
    let state = armed(arenaGame(), 1);
    state = addEnemy(state, 'drone', 5, 2, noDodge);
    const weapon = revolverOf(state);
    const enemyId = state.enemies[0]!.id;
    const r = expectOk(apply(state, { type: 'attack', weaponId: weapon.id, x: 5, y: 2, targetId: enemyId }));
    const s = survivor(r.state);
    expect(r.state.enemies).toHaveLength(0);
    expect(s.xp).toBe(2);
    expect(revolverOf(r.state).ammo).toBe(5);
    // cost 2 quick attacks = one action converted to attacksPerAction (2) quick attacks
    expect([s.actions, s.attackActions]).toEqual([2, 0]);
    expect(r.events.map((e) => e.type)).toEqual(['attacked', 'damaged', 'died', 'xp']);
  });

  it('gives XP by kind: drone 2, runner 3, bloater 6', () => {
    for (const [kind, xp] of [['drone', 2], ['runner', 3], ['bloater', 6]] as const) {
      let state = armed(arenaGame(), 3);
      state = addEnemy(state, kind, 3, 2, noDodge);
      const r = expectOk(apply(state, { type: 'attack', weaponId: revolverOf(state).id, x: 3, y: 2 }));
      expect(survivor(r.state).xp).toBe(xp);
    }
  });

  it('damages without killing, and the dodge die can dodge', () => {
    let state = armed(arenaGame(), 1);
    state = addEnemy(state, 'bloater', 3, 2, noDodge);
    const r = expectOk(apply(state, { type: 'attack', weaponId: revolverOf(state).id, x: 3, y: 2 }));
    expect(r.state.enemies[0]!.hp).toBe(2);
    const dodging = addEnemy(armed(arenaGame(), 1), 'drone', 3, 2, { dodgeDie: fixedDie(1) });
    const d = expectOk(apply(dodging, { type: 'attack', weaponId: revolverOf(dodging).id, x: 3, y: 2 }));
    expect(d.events[0]!.type).toBe('dodged');
    expect(d.state.enemies[0]!.hp).toBe(1);
    expect(revolverOf(d.state).ammo).toBe(5);
  });

  it('adds point-blank damage only on the own tile', () => {
    let state = armed(arenaGame(), 1, { pointBlank: 1 });
    state = addEnemy(state, 'bloater', 2, 2, noDodge);
    const r = expectOk(apply(state, { type: 'attack', weaponId: revolverOf(state).id, x: 2, y: 2 }));
    expect(r.state.enemies[0]!.hp).toBe(1);
  });

  it('fires a burst: one roll and one ammo per shot', () => {
    let state = patchSurvivor(arenaGame(), 0, { inventory: [] });
    state = addEnemy(state, 'bloater', 3, 3, { ...noDodge, hp: 10, hpMax: 10 });
    const bram = survivor(state, 1);
    const pistol = { ...(bram.inventory[0] as Weapon), damageDice: [fixedDie(1)] };
    state = patchSurvivor(state, 1, { inventory: [pistol] });
    state = expectOk(apply(state, { type: 'select', survivorId: bram.id })).state;
    const r = expectOk(apply(state, { type: 'attack', weaponId: pistol.id, x: 3, y: 3 }));
    expect(r.state.enemies[0]!.hp).toBe(7);
    expect((survivor(r.state, 1).inventory[0] as Weapon).ammo).toBe(6);
    expect(r.events.filter((e) => e.type === 'attacked')).toHaveLength(3);
  });

  it('punches (cost 1 quick attack) on the own tile only', () => {
    let state = addEnemy(arenaGame(), 'drone', 2, 2, noDodge);
    const punch = survivor(state).unarmed[0]!;
    expect(punch.attackCost).toBe(1);
    state = patchSurvivor(state, 0, { unarmed: [{ ...punch, damageDice: [fixedDie(1)] }] });
    const r = expectOk(apply(state, { type: 'attack', weaponId: punch.id, x: 2, y: 2 }));
    expect([survivor(r.state).actions, survivor(r.state).attackActions]).toEqual([2, 1]);
    expectRejected(apply(addEnemy(arenaGame(), 'drone', 3, 2), { type: 'attack', weaponId: punch.id, x: 3, y: 2 }), 'out_of_range');
  });

  it('says the weapon is out of ammo', () => {
    let state = armed(arenaGame(), 1, { ammo: 0 });
    state = addEnemy(state, 'drone', 3, 2);
    expectRejected(apply(state, { type: 'attack', weaponId: revolverOf(state).id, x: 3, y: 2 }), 'out_of_ammo',
      'Your weapon is out of ammo, reload it through the inventory tab or select a different weapon');
  });

  it('says there are not enough actions', () => {
    let state = patchSurvivor(armed(arenaGame(), 1), 0, { actions: 0, attackActions: 1 });
    state = addEnemy(state, 'drone', 3, 2);
    expectRejected(apply(state, { type: 'attack', weaponId: revolverOf(state).id, x: 3, y: 2 }), 'not_enough_actions', MESSAGES.notEnoughActions);
  });

  it("says 'There are no valid targets in this square'", () => {
    const state = addEnemy(armed(arenaGame(), 1), 'drone', 3, 2);
    const weaponId = revolverOf(state).id;
    expectRejected(apply(state, { type: 'attack', weaponId, x: 2, y: 3 }), 'no_valid_targets', 'There are no valid targets in this square');
    expectRejected(apply(state, { type: 'attack', weaponId, x: 3, y: 2, targetId: 'e999' }), 'no_valid_targets');
    expect(targetsAt(state, weaponId, 2, 3)).toEqual([]);
    expect(targetsAt(state, weaponId, 3, 2)).toEqual([
      { id: state.enemies[0]!.id, kind: 'enemy', name: 'Drone', x: 3, y: 2, hp: 1, hpMax: 1 },
    ]);
  });

  it('needs range (Chebyshev) and line of sight; glass lets sight through, walls do not', () => {
    let state = patchSurvivor(armed(arenaGame(), 1), 0, { x: 3, y: 3 });
    state = addEnemy(state, 'drone', 7, 3);
    const weaponId = revolverOf(state).id;
    expectRejected(apply(state, { type: 'attack', weaponId, x: 7, y: 3 }), 'out_of_range'); // range 4 > 3
    const wall = addEnemy(patchSurvivor(armed(arenaGame(), 1), 0, { x: 3, y: 3 }), 'drone', 5, 3);
    expectRejected(apply(wall, { type: 'attack', weaponId, x: 5, y: 3 }), 'out_of_range'); // wall at (4,3)
    const glass = addEnemy(patchSurvivor(armed(arenaGame(), 1), 0, { x: 3, y: 4 }), 'drone', 5, 4, noDodge);
    expectOk(apply(glass, { type: 'attack', weaponId, x: 5, y: 4 }));
    const squares = targetSquares(wall, weaponId);
    expect(squares).toContainEqual({ x: 5, y: 1 });
    expect(squares).not.toContainEqual({ x: 5, y: 3 });
    expect(squares).not.toContainEqual({ x: 4, y: 3 });
  });

  it('rejects an unknown weapon', () => {
    const state = addEnemy(arenaGame(), 'drone', 3, 2);
    expectRejected(apply(state, { type: 'attack', weaponId: 'nope', x: 3, y: 2 }), 'unknown_weapon');
  });
});
