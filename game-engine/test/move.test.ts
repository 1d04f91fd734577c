import { describe, expect, it } from 'vitest';
import { apply, MESSAGES, moveOptions, moveTargets } from '../src/index.ts';
import { arenaGame, expectOk, expectRejected, patchSurvivor, survivor } from './helpers.ts';

describe('move', () => {
  it('steps to an adjacent tile, converting one action into movesPerAction moves', () => {
    const state = arenaGame();
    const r = expectOk(apply(state, { type: 'move', x: 2, y: 3 }));
    const s = survivor(r.state);
    expect([s.x, s.y, s.actions, s.moveActions]).toEqual([2, 3, 2, 1]);
    expect(r.events).toEqual([{ type: 'stepped', actorId: s.id, fromX: 2, fromY: 2, x: 2, y: 3 }]);
    const r2 = expectOk(apply(r.state, { type: 'move', x: 2, y: 2 }));
    expect([survivor(r2.state).actions, survivor(r2.state).moveActions]).toEqual([2, 0]);
  });

  it('charges max(1, moveCost) for rubble', () => {
    const state = patchSurvivor(arenaGame(), 0, { y: 3 });
    const r = expectOk(apply(state, { type: 'move', x: 2, y: 4 }));
    expect([survivor(r.state).actions, survivor(r.state).moveActions]).toEqual([2, 0]);
  });

  it("says 'Not enough actions - do something else or pass turn' when moves and actions are short", () => {
    const state = patchSurvivor(arenaGame(), 0, { y: 3, actions: 0, moveActions: 1 });
    expectRejected(apply(state, { type: 'move', x: 2, y: 4 }), 'not_enough_actions', MESSAGES.notEnoughActions);
    expect(MESSAGES.notEnoughActions).toBe('Not enough actions - do something else or pass turn');
    // a normal tile is still affordable with the leftover move
    expectOk(apply(state, { type: 'move', x: 1, y: 3 }));
  });

  it('rejects walls, glass, diagonal and far moves without touching the state', () => {
    const state = patchSurvivor(arenaGame(), 0, { x: 3, y: 3 });
    expectRejected(apply(state, { type: 'move', x: 4, y: 3 }), 'impassable');
    expectRejected(apply(state, { type: 'move', x: 4, y: 4 }), 'not_adjacent');
    expectRejected(apply(state, { type: 'move', x: 3, y: 5 }), 'not_adjacent');
    expectRejected(apply(state, { type: 'move', x: -1, y: 3 }), 'not_adjacent');
    const glass = patchSurvivor(arenaGame(), 0, { x: 3, y: 4 });
    expectRejected(apply(glass, { type: 'move', x: 4, y: 4 }), 'impassable');
  });

  it('does not mutate the input state', () => {
    const state = arenaGame();
    const before = JSON.stringify(state);
    expectOk(apply(state, { type: 'move', x: 2, y: 3 }));
    expect(JSON.stringify(state)).toBe(before);
  });

  it('lists highlighted tiles and their costs', () => {
    const state = patchSurvivor(arenaGame(), 0, { x: 2, y: 3, actions: 0, moveActions: 1 });
    expect(moveOptions(state)).toEqual([
      { x: 2, y: 2, cost: 1, affordable: true },
      { x: 3, y: 3, cost: 1, affordable: true },
      { x: 2, y: 4, cost: 2, affordable: false },
      { x: 1, y: 3, cost: 1, affordable: true },
    ]);
    expect(moveTargets(state)).toHaveLength(3);
  });
});
