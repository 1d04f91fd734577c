import { describe, expect, it } from 'vitest';
import { apply, interactTargets, MESSAGES } from '../src/index.ts';
import type { GameState, Weapon } from '../src/index.ts';
import { arena, arena2, arenaGame, expectOk, expectRejected, patchSurvivor, survivor } from './helpers.ts';

function idOf(state: GameState, kind: string): string {
  const found = state.interactibles.find((i) => i.kind === kind);
  if (!found) throw new Error(`no ${kind}`);
  return found.id;
}

describe('interact: cryochamber', () => {
  it('costs one action, breaks, and adds a survivor with the given name', () => {
    const state = arenaGame();
    const chamberId = idOf(state, 'cryochamber');
    const r = expectOk(apply(state, { type: 'interact', targetId: chamberId, name: 'Cleo' }));
    expect(survivor(r.state).actions).toBe(2);
    expect(r.state.survivors).toHaveLength(3);
    const cleo = survivor(r.state, 2);
    expect(cleo).toMatchObject({ name: 'Cleo', x: 3, y: 2, hp: 5, hpMax: 5, actions: 3, movesPerAction: 2, attacksPerAction: 2 });
    expect(r.state.interactibles.find((i) => i.id === chamberId)).toMatchObject({ kind: 'brokenCryochamber' });
    expect(r.events).toEqual([
      { type: 'opened', interactibleId: chamberId, survivorId: cleo.id },
      { type: 'joined', survivorId: cleo.id, name: 'Cleo', x: 3, y: 2 },
    ]);
    expectRejected(apply(r.state, { type: 'interact', targetId: chamberId }), 'nothing_to_do', "There's nothing to do here.");
  });

  it('appends the letter i to a duplicate name, repeatedly', () => {
    const base = patchSurvivor(arenaGame(), 1, { name: 'Adai' });
    const r = expectOk(apply(base, { type: 'interact', targetId: idOf(base, 'cryochamber'), name: 'Ada' }));
    expect(survivor(r.state, 2).name).toBe('Adaii');
  });

  it("says 'An action is required to open this cryochamber'", () => {
    const state = patchSurvivor(arenaGame(), 0, { actions: 0, moveActions: 1 });
    expectRejected(apply(state, { type: 'interact', targetId: idOf(state, 'cryochamber'), name: 'X' }), 'cryochamber_needs_action',
      'An action is required to open this cryochamber');
  });

  it('must be on or next to it', () => {
    const state = patchSurvivor(arenaGame(), 0, { x: 5, y: 4 });
    expectRejected(apply(state, { type: 'interact', targetId: idOf(state, 'cryochamber') }), 'too_far');
    expect(interactTargets(state)).toEqual([]);
    expect(interactTargets(arenaGame()).map((t) => t.name)).toEqual(['Cryochamber', 'Upgrade station', 'Terminal']);
  });
});

describe('interact: upgrade station', () => {
  it("says 'You need to have an upgradable weapon'", () => {
    const state = patchSurvivor(arenaGame(), 0, { inventory: [], xp: 10 });
    expectRejected(apply(state, { type: 'interact', targetId: idOf(state, 'upgradeStation') }), 'no_upgradable_weapon',
      'You need to have an upgradable weapon');
  });

  it('upgrades the revolver (ammo 8, range 4, point-blank 1) for XP and one action', () => {
    const state = patchSurvivor(arenaGame(), 0, { xp: 4 });
    const r = expectOk(apply(state, { type: 'interact', targetId: idOf(state, 'upgradeStation') }));
    const s = survivor(r.state);
    expect(s.inventory[0]).toMatchObject({ name: 'Revolver', ammo: 6, ammoMax: 8, range: 4, pointBlank: 1, upgraded: true });
    expect([s.xp, s.actions]).toEqual([1, 2]);
    expectRejected(apply(r.state, { type: 'interact', targetId: idOf(state, 'upgradeStation') }), 'no_upgradable_weapon');
  });

  it('upgrades the burst pistol (ammo 12, burst 4)', () => {
    let state = patchSurvivor(arenaGame(), 1, { xp: 3 });
    state = expectOk(apply(state, { type: 'cycle', direction: 1 })).state;
    const r = expectOk(apply(state, { type: 'interact', targetId: idOf(state, 'upgradeStation') }));
    expect(survivor(r.state, 1).inventory[0]).toMatchObject({ ammoMax: 12, burst: 4, range: 2, upgraded: true });
    const w = survivor(r.state, 1).inventory[0] as Weapon;
    expect(w.ammo).toBe(9);
  });

  it('needs XP', () => {
    const state = arenaGame();
    expectRejected(apply(state, { type: 'interact', targetId: idOf(state, 'upgradeStation') }), 'not_enough_xp');
  });
});

describe('interact: stairs and the way back', () => {
  const onStairs = (state: GameState): GameState =>
    patchSurvivor(patchSurvivor(state, 0, { x: 7, y: 5 }), 1, { x: 7, y: 5 });

  it('advances only when all survivors stand on the stairs, costing one action', () => {
    const state = patchSurvivor(arenaGame(), 0, { x: 7, y: 5 });
    const stairs = idOf(state, 'stairs');
    expectRejected(apply(state, { type: 'interact', targetId: stairs }), 'not_all_on_stairs');
    const ready = onStairs(arenaGame());
    const r = expectOk(apply(ready, { type: 'interact', targetId: stairs }));
    expect(r.state.levelIndex).toBe(1);
    expect(r.state.survivors.map((s) => [s.x, s.y, s.actions])).toEqual([[1, 1, 2], [1, 1, 3]]);
    expect(r.state.enemies.map((e) => e.kind)).toEqual(['bloater']);
    expect(r.state.items).toEqual([]);
    expect(r.state.deck).toEqual([]);
    expect(r.state.interactibles.map((i) => i.kind)).toEqual(['entrance', 'stairs']);
    expect(r.events).toEqual([{ type: 'levelled', levelIndex: 1, levelId: 'arena2', name: 'Arena 2' }]);
    expectRejected(apply(r.state, { type: 'interact', targetId: idOf(r.state, 'entrance') }), 'no_going_back', 'Why would you go back there?');
    expect(MESSAGES.noGoingBack).toBe('Why would you go back there?');
  });

  it('must stand on the stairs and have an action', () => {
    const near = patchSurvivor(arenaGame(), 0, { x: 6, y: 5 });
    expectRejected(apply(near, { type: 'interact', targetId: idOf(near, 'stairs') }), 'too_far');
    const tired = patchSurvivor(onStairs(arenaGame()), 0, { actions: 0, moveActions: 1 });
    expectRejected(apply(tired, { type: 'interact', targetId: idOf(tired, 'stairs') }), 'not_enough_actions', MESSAGES.notEnoughActions);
  });

  it('leaves downed survivors (hp 0) behind unless they lie on the stairs', () => {
    const state = patchSurvivor(patchSurvivor(arenaGame(), 0, { x: 7, y: 5 }), 1, { hp: 0, actions: 0 });
    const r = expectOk(apply(state, { type: 'interact', targetId: idOf(state, 'stairs') }));
    expect(r.state.survivors.map((s) => s.name)).toEqual(['Ada']);
  });

  it('wins on the stairs of the last level', () => {
    const state = onStairs(arenaGame([arena]));
    const r = expectOk(apply(state, { type: 'interact', targetId: idOf(state, 'stairs') }));
    expect(r.state.status).toBe('won');
    expect(r.events).toEqual([{ type: 'won', round: 1 }]);
    expectRejected(apply(r.state, { type: 'pass' }), 'game_over');
  });

  it("says 'There's nothing to do here.' for terminals, actors and unknown ids", () => {
    const state = arenaGame();
    expectRejected(apply(state, { type: 'interact', targetId: idOf(state, 'terminal') }), 'nothing_to_do', "There's nothing to do here.");
    expectRejected(apply(state, { type: 'interact', targetId: survivor(state, 1).id }), 'nothing_to_do');
    expectRejected(apply(state, { type: 'interact', targetId: 'zzz' }), 'nothing_to_do');
    expect(arena2.baseSurvivors).toEqual([]);
  });
});
