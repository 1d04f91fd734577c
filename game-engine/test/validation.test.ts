import { describe, expect, it } from 'vitest';
import { apply } from '../src/index.ts';
import { arenaGame, expectRejected, survivor } from './helpers.ts';

describe('validation order and malformed actions', () => {
  it('rejects malformed actions with a clear message and never throws', () => {
    const state = arenaGame();
    for (const bad of [null, 42, 'move', [], {}, { type: 'fly' }, { type: 'move', x: 1 }, { type: 'move', x: 1.5, y: 2 },
      { type: 'attack', weaponId: 3, x: 1, y: 1 }, { type: 'cycle', direction: 2 }, { type: 'pass', survivorId: 7 },
      { type: 'toString' }, { type: 'interact', targetId: 'x', name: 5 }]) {
      const r = expectRejected(apply(state, bad), 'malformed_action');
      expect(r.message.length).toBeGreaterThan(0);
    }
  });

  it('checks game over first, then phase, then the active survivor, then the rule', () => {
    const state = arenaGame();
    const over = { ...state, status: 'lost' as const, phase: 'Enemies' as const };
    expectRejected(apply(over, { type: 'move', x: 99, y: 99 }), 'game_over');
    expectRejected(apply({ ...state, phase: 'Enemies' }, { type: 'move', x: 99, y: 99 }), 'wrong_phase');
    expectRejected(apply(state, { type: 'move', x: 99, y: 99, survivorId: survivor(state, 1).id }), 'not_active_survivor');
    expectRejected(apply({ ...state, activeSurvivorId: null }, { type: 'pass' }), 'no_active_survivor');
    expectRejected(apply(state, { type: 'move', x: 99, y: 99, survivorId: survivor(state).id }), 'not_adjacent');
  });
});
