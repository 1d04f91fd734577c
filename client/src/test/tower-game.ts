import { apply, createGame, legalActions, type Action, type GameState } from '@site/game-engine';

/** A real game: a fixed pseudo-random choice among the engine's legal actions, never a look (it changes nothing). */
export function playedGame(seed: string, maxActions: number): Action[] {
  let state = createGame({ seed });
  const actions: Action[] = [];
  let pick = 7;
  while (state.status === 'playing' && actions.length < maxActions) {
    const options = legalActions(state).filter((a) => a.type !== 'look');
    if (options.length === 0) break;
    pick = (pick * 1103515245 + 12345) % 2147483648;
    // Prefer anything but pass, so the survivors move and fight; pass when that is all there is.
    const active = options.filter((a) => a.type !== 'pass');
    const list = active.length > 0 && pick % 4 !== 0 ? active : options;
    const action = list[pick % list.length];
    if (!action) break;
    const result = apply(state, action);
    if (!result.ok) throw new Error(result.message);
    state = result.state;
    actions.push(action);
  }
  return actions;
}


/** A game of survivors who only pass, played to its end (they are eaten sooner or later). */
export function passUntilOver(seed: string): { state: GameState; actions: Action[] } {
  let state = createGame({ seed });
  const actions: Action[] = [];
  while (state.status === 'playing' && actions.length < 2000) {
    const result = apply(state, { type: 'pass' });
    if (!result.ok) throw new Error(result.message);
    state = result.state;
    actions.push({ type: 'pass' });
  }
  return { state, actions };
}
