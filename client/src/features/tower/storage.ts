import { hashState, replay, type Action, type GameState } from '@site/game-engine';

/** What a reload needs: the seed and the accepted actions. The engine replays them into the same state. */
export type SavedGame = { seed: string; actions: Action[]; hash: string; savedAt: string; unranked?: boolean };

export const STORAGE_KEY = 'tower-game';

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function browserStorage(): Store | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function saveGame(seed: string, actions: readonly Action[], state: GameState, unranked = false, store: Store | null = browserStorage()): void {
  const saved: SavedGame = { seed, actions: [...actions], hash: hashState(state), savedAt: new Date().toISOString(), ...(unranked ? { unranked } : {}) };
  try {
    store?.setItem(STORAGE_KEY, JSON.stringify(saved));
  } catch {
    // A full or disabled storage only costs the ability to continue after a reload.
  }
}

export function clearSavedGame(store: Store | null = browserStorage()): void {
  store?.removeItem(STORAGE_KEY);
}

export type Restored = { seed: string; actions: Action[]; state: GameState; unranked?: boolean };

/**
 * The saved game replayed through the engine, or null when there is none. A save whose replay does
 * not reach the recorded hash (the rules changed, or the entry was edited) is reported, not trusted.
 */
export function loadSavedGame(store: Store | null = browserStorage()): Restored | { error: string } | null {
  const raw = store?.getItem(STORAGE_KEY);
  if (!raw) return null;
  try {
    const saved = JSON.parse(raw) as Partial<SavedGame>;
    if (typeof saved.seed !== 'string' || !Array.isArray(saved.actions)) return { error: 'The saved game is unreadable.' };
    const { state, rejected } = replay({ seed: saved.seed }, saved.actions);
    if (rejected.length > 0 || (saved.hash !== undefined && saved.hash !== hashState(state))) {
      return { error: 'The saved game no longer replays to the same position.' };
    }
    return { seed: saved.seed, actions: saved.actions, state, ...(saved.unranked === true ? { unranked: true } : {}) };
  } catch {
    return { error: 'The saved game is unreadable.' };
  }
}

/** A short random seed for a new game (the engine itself never uses a clock or Math.random). */
export function randomSeed(): string {
  return String(Math.floor(100000 + Math.random() * 900000));
}
