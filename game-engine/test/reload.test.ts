import { describe, expect, it } from 'vitest';
import { apply, MESSAGES } from '../src/index.ts';
import type { Weapon } from '../src/index.ts';
import { arenaGame, expectOk, expectRejected, patchSurvivor, survivor } from './helpers.ts';

describe('reload', () => {
  it('is a quick attack that refills the ammo', () => {
    const base = arenaGame();
    const revolver = survivor(base).inventory[0] as Weapon;
    const state = patchSurvivor(base, 0, { inventory: [{ ...revolver, ammo: 1 }] });
    const r = expectOk(apply(state, { type: 'reload', itemId: revolver.id }));
    const s = survivor(r.state);
    expect((s.inventory[0] as Weapon).ammo).toBe(6);
    expect([s.actions, s.attackActions]).toEqual([2, 1]);
    expect(r.events).toEqual([{ type: 'reloaded', survivorId: s.id, itemId: revolver.id, ammo: 6 }]);
    // the leftover quick attack pays for the next reload
    const again = patchSurvivor(r.state, 0, { inventory: [{ ...revolver, ammo: 0 }] });
    const r2 = expectOk(apply(again, { type: 'reload', itemId: revolver.id }));
    expect([survivor(r2.state).actions, survivor(r2.state).attackActions]).toEqual([2, 0]);
  });

  it('rejects full weapons, armour, unknown items and a survivor with nothing left', () => {
    const base = arenaGame();
    const revolver = survivor(base).inventory[0] as Weapon;
    expectRejected(apply(base, { type: 'reload', itemId: revolver.id }), 'ammo_full');
    expectRejected(apply(base, { type: 'reload', itemId: 'i999' }), 'unknown_item');
    const picked = expectOk(apply(base, { type: 'pick', itemId: base.items[0]!.id })).state;
    expectRejected(apply(picked, { type: 'reload', itemId: base.items[0]!.id }), 'not_reloadable');
    const tired = patchSurvivor(base, 0, { actions: 0, moveActions: 1, inventory: [{ ...revolver, ammo: 0 }] });
    expectRejected(apply(tired, { type: 'reload', itemId: revolver.id }), 'not_enough_actions', MESSAGES.notEnoughActions);
  });
});
