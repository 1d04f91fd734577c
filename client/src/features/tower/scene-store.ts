import { useSyncExternalStore } from 'react';
import type { GameState } from '@site/game-engine';
import { sceneFromState, type Scene } from './scene.ts';

/** The drawn scene lives outside React: playback updates it many times a second and only the canvas listens. */
export class SceneStore {
  private scene: Scene;
  private listeners = new Set<() => void>();

  constructor(scene: Scene) {
    this.scene = scene;
  }

  get(): Scene {
    return this.scene;
  }

  set(scene: Scene): void {
    this.scene = scene;
    for (const listener of this.listeners) listener();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * The engine's state as a scene, keeping the animations of tokens that are already where the state
 * says (a walk still finishing, a fading shot), so the end of a playback never jumps.
 */
export function settle(current: Scene, final: GameState): Scene {
  const fresh = sceneFromState(final);
  const byId = new Map(current.tokens.map((t) => [t.id, t]));
  return {
    ...fresh,
    tokens: fresh.tokens.map((t) => {
      const old = byId.get(t.id);
      return old && old.x === t.x && old.y === t.y ? { ...old, hp: t.hp, hpMax: t.hpMax, name: t.name } : t;
    }),
    effects: current.effects,
  };
}

/** The scene as drawn right now, for the few parts of the page that must agree with the map during playback. */
export function useDrawnScene(store: SceneStore): Scene {
  return useSyncExternalStore(
    (listener) => store.subscribe(listener),
    () => store.get(),
  );
}
