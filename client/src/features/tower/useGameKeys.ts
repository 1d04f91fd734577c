import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import type { Point } from '@site/game-engine';
import type { TileMapHandle } from './TileMap.tsx';
import type { GameControls } from './useGameControls.ts';

const DIRECTIONS: Record<string, Point> = { w: { x: 0, y: -1 }, a: { x: -1, y: 0 }, s: { x: 0, y: 1 }, d: { x: 1, y: 0 } };

type Keys = {
  controls: GameControls;
  /** Help or the new-game form covers the game: no key belongs to it. */
  paused: boolean;
  canAct: boolean;
  /** The game's root element: keys typed elsewhere on the page are not the game's. */
  rootRef: RefObject<HTMLDivElement | null>;
  mapHandle: RefObject<TileMapHandle | null>;
  /** The current floor's size, to keep the look/aim cursor on the map. */
  width: number;
  height: number;
};

/**
 * The spec's keyboard controls (section 2): w a s d move (or move the cursor while looking or aiming),
 * space confirms the cursor or attacks the first target, Enter passes, Tab and < > cycle survivors,
 * f c e q open Attack, Look, Interact and Inventory, 1-4 pick an entry of the open panel, Escape goes
 * back. One window listener, always calling the latest handler.
 */
export function useGameKeys({ controls, paused, canAct, rootRef, mapHandle, width, height }: Keys): void {
  const onKey = useRef<(e: KeyboardEvent) => void>(() => undefined);
  // A layout effect: the next key must see this render's state, whenever the passive effects run.
  useLayoutEffect(() => {
    const { survivor, mode, cursor, setCursor, setMode, act, move, lookAt, chooseWeapon, chooseSquare, attack, interactWith, back, toggle, pass } =
      controls;
    const { weapons, lookEntries, interactEntries, targets } = controls;
    onKey.current = (e: KeyboardEvent) => {
      if (paused || mode.kind === 'name' || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      const tag = target?.tagName ?? '';
      if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target?.isContentEditable) return;
      const onControl = tag === 'BUTTON' || tag === 'A';
      const inGame = !target || target === document.body || (rootRef.current?.contains(target) ?? false);
      if (!inGame) return;
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      if (key === 'Escape') {
        e.preventDefault();
        back();
        return;
      }
      if (!canAct || !survivor) return;
      const dir = DIRECTIONS[key];
      if (dir) {
        e.preventDefault();
        if (mode.kind === 'look' || mode.kind === 'aim') {
          const base = cursor ?? { x: survivor.x, y: survivor.y };
          const next = { x: clamp(base.x + dir.x, 0, width - 1), y: clamp(base.y + dir.y, 0, height - 1) };
          setCursor(next);
          mapHandle.current?.reveal(next);
        } else if (mode.kind === 'idle' || mode.kind === 'move') {
          move(dir.x, dir.y);
        }
        return;
      }
      if (key === 'Tab' && !e.shiftKey) {
        e.preventDefault();
        act({ type: 'cycle', direction: 1 });
        return;
      }
      if (key === ' ' && !onControl) {
        e.preventDefault();
        if ((mode.kind === 'look' || mode.kind === 'aim') && cursor) {
          if (mode.kind === 'look') lookAt(cursor);
          else chooseSquare(mode.weaponId, cursor);
        } else if (mode.kind === 'targets' && targets[0]) {
          attack(mode.weaponId, mode.tile, targets[0]);
        }
        return;
      }
      if (key === 'Enter' && !onControl) {
        e.preventDefault();
        pass();
        return;
      }
      const shortcuts: Record<string, () => void> = {
        f: () => toggle('attack'),
        c: () => toggle('look'),
        e: () => toggle('interact'),
        q: () => toggle('inventory'),
        '<': () => act({ type: 'cycle', direction: -1 }),
        '>': () => act({ type: 'cycle', direction: 1 }),
      };
      const shortcut = shortcuts[key];
      if (shortcut) {
        e.preventDefault();
        shortcut();
        return;
      }
      if (key >= '1' && key <= '4') {
        const index = Number(key) - 1;
        e.preventDefault();
        if (mode.kind === 'attack') {
          const weapon = weapons[index];
          if (weapon) chooseWeapon(weapon);
        } else if (mode.kind === 'inventory') {
          const item = survivor.inventory[index];
          if (item) setMode({ kind: 'inventory', menuFor: item.id });
        } else if (mode.kind === 'look') {
          const entry = lookEntries[index];
          if (entry) lookAt({ x: entry.thing.x, y: entry.thing.y }, entry.thing.id);
        } else if (mode.kind === 'interact') {
          const entry = interactEntries[index];
          if (entry) interactWith(entry.thing);
        } else if (mode.kind === 'targets') {
          const target = targets[index];
          if (target) attack(mode.weaponId, mode.tile, target);
        }
      }
    };
  });
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey.current(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
