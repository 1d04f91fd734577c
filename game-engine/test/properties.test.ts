import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apply, createGame, hasActionsLeft, legalActions, floorTiles } from '../src/index.ts';
import type { GameState } from '../src/index.ts';

function checkInvariants(state: GameState): void {
  const { width, tiles } = floorTiles(state);
  const passable = (x: number, y: number): boolean => (tiles[y * width + x]?.moveCost ?? -1) >= 0;
  for (const s of state.survivors) {
    expect(s.hp).toBeLessThanOrEqual(s.hpMax);
    expect(s.hp).toBeGreaterThanOrEqual(0); // below 0 means removed
    expect(s.actions).toBeGreaterThanOrEqual(0);
    expect(s.actions).toBeLessThanOrEqual(s.actionsMax);
    expect(s.moveActions).toBeGreaterThanOrEqual(0);
    expect(s.attackActions).toBeGreaterThanOrEqual(0);
    expect(passable(s.x, s.y)).toBe(true);
    for (const item of s.inventory) {
      if (item.kind === 'weapon' && item.ammo !== null) expect(item.ammo).toBeGreaterThanOrEqual(0);
    }
  }
  for (const e of state.enemies) {
    expect(e.hp).toBeGreaterThan(0);
    expect(e.hp).toBeLessThanOrEqual(e.hpMax);
    expect(e.actions).toBeGreaterThanOrEqual(0);
    expect(passable(e.x, e.y)).toBe(true);
  }
  const ids = [...state.survivors, ...state.enemies, ...state.items, ...state.interactibles].map((a) => a.id);
  expect(new Set(ids).size).toBe(ids.length);
  if (state.status === 'playing') {
    expect(state.phase).toBe('Survivors');
    const active = state.survivors.find((s) => s.id === state.activeSurvivorId);
    expect(active && hasActionsLeft(active)).toBe(true);
    expect(legalActions(state)).toContainEqual({ type: 'pass' });
  } else {
    expect(legalActions(state)).toEqual([]);
  }
  if (state.status === 'lost') expect(state.survivors.every((s) => s.hp <= 0)).toBe(true);
}

describe('properties over random legal action sequences', () => {
  it('keep every invariant, accept every legal action and round-trip through JSON', () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(fc.nat(), { minLength: 1, maxLength: 300 }), (seed, choices) => {
        let state = createGame({ seed });
        for (const choice of choices) {
          if (state.status !== 'playing') break;
          const legal = legalActions(state);
          const action = legal[choice % legal.length]!;
          const before = JSON.stringify(state);
          const result = apply(state, action);
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          expect(JSON.stringify(state)).toBe(before); // input untouched
          state = result.state;
          checkInvariants(state);
        }
        expect(JSON.parse(JSON.stringify(state))).toStrictEqual(state);
      }),
      { numRuns: 60 },
    );
  });

  it('games always end (won or lost) when nobody stalls forever', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        let state = createGame({ seed });
        let steps = 0;
        let chooser = seed >>> 0;
        while (state.status === 'playing' && steps < 20000) {
          const legal = legalActions(state);
          chooser = (Math.imul(chooser, 1664525) + 1013904223) >>> 0;
          const action = legal[chooser % legal.length]!;
          const result = apply(state, action);
          if (!result.ok) throw new Error(result.message);
          state = result.state;
          steps++;
        }
        expect(state.status).not.toBe('playing');
      }),
      { numRuns: 20 },
    );
  });
});
