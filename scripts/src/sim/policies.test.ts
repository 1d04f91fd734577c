import { describe, expect, it } from 'vitest';
import { apply, canonicalJson, createGame, legalActions, Rng, seedRng } from '@site/game-engine';
import type { Action, GameState } from '@site/game-engine';
import { createPolicy, greedyPolicy, isPolicyName, POLICY_NAMES } from './policies.ts';
import type { PolicyName } from './policies.ts';

/** Plays a game, checking every chosen action against legalActions. Returns the action log. */
function playChecked(policy: PolicyName, seed: string, maxActions = 5000): { actions: Action[]; state: GameState } {
  const p = createPolicy(policy, seed);
  let state = createGame({ seed });
  const actions: Action[] = [];
  while (state.status === 'playing' && actions.length < maxActions) {
    const action = p.choose(state);
    const legal = legalActions(state).map(canonicalJson);
    expect(legal).toContain(canonicalJson(action));
    const result = apply(state, action);
    expect(result.ok).toBe(true);
    if (!result.ok) break;
    state = result.state;
    actions.push(action);
  }
  return { actions, state };
}

describe('policies', () => {
  it('know their names', () => {
    expect(POLICY_NAMES).toEqual(['random', 'greedy']);
    expect(isPolicyName('greedy')).toBe(true);
    expect(isPolicyName('smart')).toBe(false);
  });

  for (const policy of POLICY_NAMES) {
    it(`${policy} only chooses legal actions`, () => {
      for (let i = 0; i < 4; i++) {
        const { state } = playChecked(policy, `legal-${policy}-${i}`);
        expect(state.status).not.toBe('playing');
      }
    });

    it(`${policy} is deterministic for a game seed`, () => {
      expect(playChecked(policy, 'same').actions).toEqual(playChecked(policy, 'same').actions);
    });
  }

  it('random never cycles or drops (free actions that could loop forever)', () => {
    for (let i = 0; i < 3; i++) {
      const { actions } = playChecked('random', `free-${i}`);
      expect(actions.some((a) => a.type === 'cycle' || a.type === 'drop')).toBe(false);
    }
  });

  it('greedy opens the cryochamber, attacks, reloads and reaches the second floor', () => {
    const kinds = new Set<string>();
    let floors = 0;
    for (let i = 0; i < 5; i++) {
      const { actions, state } = playChecked('greedy', `greedy-${i}`);
      for (const a of actions) kinds.add(a.type === 'interact' && a.name ? 'cryochamber' : a.type);
      if (state.levelIndex > 0) floors += 1;
    }
    expect([...kinds]).toEqual(expect.arrayContaining(['move', 'attack', 'reload', 'cryochamber', 'interact', 'pick']));
    expect(floors).toBeGreaterThan(0);
  });

  it('greedy attacks an enemy on its own tile rather than walking away', () => {
    let state = createGame({ seed: 'own-tile' });
    const s = state.survivors[0];
    const e = state.enemies[0];
    if (!s || !e) throw new Error('level 1 starts with survivors and enemies');
    state = { ...state, enemies: [{ ...e, x: s.x, y: s.y }] };
    const action = greedyPolicy(new Rng(seedRng('t'))).choose(state);
    expect(action).toMatchObject({ type: 'attack', x: s.x, y: s.y });
  });
});
