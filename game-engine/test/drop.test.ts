import { describe, expect, it } from 'vitest';
import { apply, thingsAt } from '../src/index.ts';
import { arenaGame, expectOk, expectRejected, patchSurvivor, survivor } from './helpers.ts';

describe('drop', () => {
  it("puts the item on the survivor's tile with x and y, for free", () => {
    const state = patchSurvivor(arenaGame(), 0, { x: 5, y: 4 });
    const item = survivor(state).inventory[0]!;
    const r = expectOk(apply(state, { type: 'drop', itemId: item.id }));
    expect(survivor(r.state).inventory).toEqual([]);
    expect(survivor(r.state).actions).toBe(3);
    expect(r.state.items.find((i) => i.id === item.id)).toMatchObject({ x: 5, y: 4, name: 'Revolver' });
    expect(r.events).toEqual([{ type: 'dropped', survivorId: survivor(state).id, itemId: item.id, x: 5, y: 4 }]);
    expect(thingsAt(r.state, 5, 4).map((t) => t.kind)).toEqual(['survivor', 'item']);
  });

  it('cannot drop what it does not carry, nor its fists', () => {
    const state = arenaGame();
    expectRejected(apply(state, { type: 'drop', itemId: 'i999' }), 'unknown_item');
    expectRejected(apply(state, { type: 'drop', itemId: survivor(state).unarmed[0]!.id }), 'unknown_item');
  });
});
