import { describe, expect, it } from 'vitest';
import { apply, createGame, hashState, type Action, type GameState } from '@site/game-engine';
import { STORAGE_KEY, loadSavedGame, saveGame } from './storage.ts';

function memoryStore() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    data,
  };
}

describe('the saved game', () => {
  it('is the seed and the action log, and replays to the same state', () => {
    let state: GameState = createGame({ seed: 'save-1' });
    const actions: Action[] = [{ type: 'move', x: 3, y: 2 }, { type: 'pass' }, { type: 'pass' }];
    for (const action of actions) {
      const result = apply(state, action);
      if (!result.ok) throw new Error(result.message);
      state = result.state;
    }
    const store = memoryStore();
    saveGame('save-1', actions, state, false, store);
    const restored = loadSavedGame(store);
    if (!restored || 'error' in restored) throw new Error('not restored');
    expect(hashState(restored.state)).toBe(hashState(state));
    expect(restored.actions).toEqual(actions);
    expect(state.round).toBe(2);
  });

  it('refuses a save that no longer replays to its hash', () => {
    const store = memoryStore();
    store.setItem(STORAGE_KEY, JSON.stringify({ seed: 'x', actions: [{ type: 'pass' }], hash: 'deadbeef' }));
    expect(loadSavedGame(store)).toEqual({ error: 'The saved game no longer replays to the same position.' });
    store.setItem(STORAGE_KEY, '{not json');
    expect(loadSavedGame(store)).toEqual({ error: 'The saved game is unreadable.' });
    store.removeItem(STORAGE_KEY);
    expect(loadSavedGame(store)).toBeNull();
  });
});
