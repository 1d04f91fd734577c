import { describe, expect, it } from 'vitest';
import { apply, MESSAGES, visibleTiles } from '../src/index.ts';
import { addEnemy, arenaGame, expectOk, expectRejected, patchSurvivor } from './helpers.ts';

describe('look', () => {
  it('lists the things on a visible tile with name, hp and hpMax, at no cost', () => {
    const state = addEnemy(arenaGame(), 'bloater', 3, 2);
    const r = expectOk(apply(state, { type: 'look', x: 3, y: 2 }));
    expect(r.state).toBe(state);
    expect(r.events).toEqual([
      {
        type: 'looked',
        x: 3,
        y: 2,
        things: [
          { id: state.enemies[0]!.id, kind: 'enemy', name: 'Bloater', x: 3, y: 2, hp: 3, hpMax: 3 },
          { id: state.interactibles[0]!.id, kind: 'interactible', name: 'Cryochamber', x: 3, y: 2, hp: null, hpMax: null },
        ],
      },
    ]);
  });

  it("says 'Try looking at something interesting' for an empty, hidden or off-map tile", () => {
    const state = addEnemy(patchSurvivor(arenaGame(), 0, { x: 3, y: 3 }), 'drone', 5, 3);
    expectRejected(apply(state, { type: 'look', x: 6, y: 5 }), 'nothing_to_look_at', 'Try looking at something interesting');
    expect(MESSAGES.nothingToLookAt).toBe('Try looking at something interesting');
    expectRejected(apply(state, { type: 'look', x: 5, y: 3 }), 'nothing_to_look_at'); // behind the wall
    expectRejected(apply(state, { type: 'look', x: 50, y: 3 }), 'nothing_to_look_at');
  });

  it('visible tiles follow line of sight', () => {
    const state = patchSurvivor(arenaGame(), 0, { x: 3, y: 3 });
    const visible = visibleTiles(state).map((t) => `${t.x},${t.y}`);
    expect(visible).toContain('3,3');
    expect(visible).toContain('4,3'); // the wall itself is seen
    expect(visible).not.toContain('5,3');
  });
});
