import { describe, expect, it } from 'vitest';
import { apply, hasActionsLeft } from '../src/index.ts';
import { arenaGame, expectOk, expectRejected, patchSurvivor, survivor } from './helpers.ts';

describe('select and cycle', () => {
  it('cycles survivors without losing actions', () => {
    let state = arenaGame();
    state = expectOk(apply(state, { type: 'move', x: 2, y: 3 })).state;
    const r = expectOk(apply(state, { type: 'cycle', direction: 1 }));
    expect(r.state.activeSurvivorId).toBe(survivor(state, 1).id);
    const back = expectOk(apply(r.state, { type: 'cycle', direction: -1 }));
    expect(back.state.activeSurvivorId).toBe(survivor(state).id);
    expect(survivor(back.state)).toMatchObject({ actions: 2, moveActions: 1 });
  });

  it('selects by id, skips survivors without actions, rejects unknown ones', () => {
    const state = patchSurvivor(arenaGame(), 1, { actions: 0 });
    expectRejected(apply(state, { type: 'select', survivorId: survivor(state, 1).id }), 'no_actions_left');
    expectRejected(apply(state, { type: 'select', survivorId: 'nobody' }), 'unknown_survivor');
    expect(hasActionsLeft(survivor(state, 1))).toBe(false);
    const r = expectOk(apply(state, { type: 'cycle', direction: 1 }));
    expect(r.state).toBe(state);
    expect(r.events).toEqual([]);
  });
});
