import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createGame } from '@site/game-engine';
import { MenuBar } from './MenuBar.tsx';
import { sceneFromState } from './scene.ts';
import { SceneStore } from './scene-store.ts';
import { IDLE } from './useGameControls.ts';

describe('the menu bar', () => {
  it("shows the survivor's health as the map draws it during the enemy turn, not the end result ahead of it", () => {
    const state = createGame({ seed: 'menu-bar' });
    const survivor = state.survivors[0]!;
    const store = new SceneStore(sceneFromState(state));
    // The engine's result: the enemy turn already took 2 health; the playback has not shown the hit yet.
    const after = { ...survivor, hp: survivor.hp - 2 };
    render(<MenuBar survivor={after} store={store} mode={IDLE} canAct={false} onCycle={vi.fn()} onToggle={vi.fn()} onPass={vi.fn()} refocus={vi.fn()} />);
    const meter = () => screen.getByRole('meter', { name: `${survivor.name} health` });
    expect(meter()).toHaveAttribute('aria-valuenow', String(survivor.hp));
    // The playback reaches the hit: the bar follows the map.
    act(() => {
      const scene = store.get();
      store.set({ ...scene, tokens: scene.tokens.map((t) => (t.id === survivor.id ? { ...t, hp: survivor.hp - 2 } : t)) });
    });
    expect(meter()).toHaveAttribute('aria-valuenow', String(survivor.hp - 2));
  });
});
