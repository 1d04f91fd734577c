import { describe, expect, it } from 'vitest';
import { apply } from '../src/index.ts';
import { arenaGame, expectOk, patchSurvivor, survivor } from './helpers.ts';

describe('pass', () => {
  it('forfeits the remaining actions and selects the next survivor', () => {
    const state = patchSurvivor(arenaGame(), 0, { moveActions: 1, attackActions: 1 });
    const r = expectOk(apply(state, { type: 'pass' }));
    expect(survivor(r.state)).toMatchObject({ actions: 0, moveActions: 0, attackActions: 0 });
    expect(r.state.activeSurvivorId).toBe(survivor(state, 1).id);
    expect(r.events).toEqual([
      { type: 'passed', survivorId: survivor(state).id },
      { type: 'selected', survivorId: survivor(state, 1).id },
    ]);
  });

  it('passes automatically when a survivor runs out of actions', () => {
    let state = arenaGame();
    for (const [x, y] of [[2, 3], [2, 2], [2, 3], [2, 2], [2, 3]] as const) {
      state = expectOk(apply(state, { type: 'move', x, y })).state;
      expect(state.activeSurvivorId).toBe(survivor(state).id);
    }
    const r = expectOk(apply(state, { type: 'move', x: 2, y: 2 }));
    expect(r.state.activeSurvivorId).toBe(survivor(state, 1).id);
    expect(r.events.at(-1)).toEqual({ type: 'selected', survivorId: survivor(state, 1).id });
  });

  it('when nobody has actions the enemy phase runs and the first survivor gets full actions', () => {
    let state = arenaGame();
    state = expectOk(apply(state, { type: 'pass' })).state;
    const r = expectOk(apply(state, { type: 'pass' }));
    const types = r.events.map((e) => e.type);
    expect(types[0]).toBe('passed');
    expect(types).toContain('spawned');
    expect(r.events.filter((e) => e.type === 'phase')).toEqual([
      { type: 'phase', phase: 'Enemies', round: 1 },
      { type: 'phase', phase: 'Survivors', round: 2 },
    ]);
    expect(r.state.phase).toBe('Survivors');
    expect(r.state.round).toBe(2);
    expect(r.state.activeSurvivorId).toBe(survivor(r.state).id);
    expect(r.state.survivors.map((s) => s.actions)).toEqual([3, 3]);
  });
});
