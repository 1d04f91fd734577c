import { describe, expect, it } from 'vitest';
import { apply, INVENTORY_SIZE } from '../src/index.ts';
import { arenaGame, expectOk, expectRejected, patchSurvivor, survivor } from './helpers.ts';

describe('pick', () => {
  it('picks up an item on the own tile (free) and clears its position', () => {
    const state = arenaGame();
    const vest = state.items[0]!;
    const r = expectOk(apply(state, { type: 'pick', itemId: vest.id }));
    expect(r.state.items).toEqual([]);
    expect(survivor(r.state).inventory[1]).toMatchObject({ id: vest.id, kind: 'armor', x: null, y: null });
    expect(r.events).toEqual([{ type: 'picked', survivorId: survivor(state).id, itemId: vest.id, x: 2, y: 2 }]);
  });

  it('a dropped item can be picked by another survivor on the tile', () => {
    const state = arenaGame();
    const revolver = survivor(state).inventory[0]!;
    let s = expectOk(apply(state, { type: 'drop', itemId: revolver.id })).state;
    s = expectOk(apply(s, { type: 'cycle', direction: 1 })).state;
    s = expectOk(apply(s, { type: 'pick', itemId: revolver.id })).state;
    expect(survivor(s, 1).inventory.map((i) => i.id)).toContain(revolver.id);
  });

  it('rejects far items, unknown items and a full inventory', () => {
    const state = arenaGame();
    const vest = state.items[0]!;
    expectRejected(apply(patchSurvivor(state, 0, { x: 3 }), { type: 'pick', itemId: vest.id }), 'too_far');
    expectRejected(apply(state, { type: 'pick', itemId: 'i999' }), 'unknown_item');
    const full = patchSurvivor(state, 0, { inventory: Array.from({ length: INVENTORY_SIZE }, () => survivor(state).inventory[0]!) });
    expectRejected(apply(full, { type: 'pick', itemId: vest.id }), 'inventory_full');
  });
});
