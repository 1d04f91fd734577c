import { useEffect, useState } from 'react';
import {
  MESSAGES,
  activeSurvivor,
  interactTargets,
  moveOptions,
  targetSquares,
  targetsAt,
  thingsAt,
  visibleTiles,
  weaponsOf,
  type Action,
  type GameState,
  type Point,
  type Thing,
  type Weapon,
} from '@site/game-engine';
import type { Highlight } from './draw.ts';
import { describeThing, interactLabel } from './describe.ts';
import type { Outcome } from './useTowerGame.ts';

/** Which sub-panel is open under the map, and where in its flow the player is. */
export type Mode =
  | { kind: 'idle' }
  | { kind: 'move' }
  | { kind: 'look'; tile: Point | null; things: Thing[] | null; detailId: string | null }
  | { kind: 'interact' }
  | { kind: 'inventory'; menuFor: string | null }
  | { kind: 'attack' }
  | { kind: 'aim'; weaponId: string }
  | { kind: 'targets'; weaponId: string; tile: Point }
  | { kind: 'name'; targetId: string };

/** The panels the bottom menu opens and closes. */
export type MenuKind = 'move' | 'attack' | 'inventory' | 'look' | 'interact';

export const IDLE: Mode = { kind: 'idle' };

/**
 * The flow of the sub-panels: the open mode, the look/aim cursor and the refusal message, with every
 * step the menu, the map, the panels and the keyboard can take (attack: weapon -> square -> target;
 * look: tile -> thing; interact -> name prompt; inventory -> item menu). `canAct` is false while the
 * enemies move, the game is over or paused.
 */
export function useGameControls(state: GameState, perform: (action: Action) => Outcome, canAct: boolean) {
  const survivor = activeSurvivor(state);
  const [mode, setMode] = useState<Mode>(IDLE);
  const [cursor, setCursor] = useState<Point | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const act = (action: Action): boolean => {
    const outcome = perform(action);
    if (!outcome.ok) {
      setMessage(outcome.message);
      return false;
    }
    setMessage(null);
    return true;
  };

  const open = (next: Mode) => {
    setMessage(null);
    if (next.kind === 'look' || next.kind === 'aim') setCursor(survivor ? { x: survivor.x, y: survivor.y } : null);
    else setCursor(null);
    setMode(next);
  };

  // A new active survivor or an enemy phase closes whatever panel was open.
  const activeId = state.activeSurvivorId;
  useEffect(() => {
    setMode(IDLE);
    setCursor(null);
  }, [activeId, state.round, state.levelIndex]);

  const move = (dx: number, dy: number) => {
    if (!survivor) return;
    act({ type: 'move', x: survivor.x + dx, y: survivor.y + dy });
  };

  const lookAt = (tile: Point, detailId: string | null = null) => {
    const outcome = perform({ type: 'look', x: tile.x, y: tile.y });
    setMessage(null);
    setCursor(tile);
    setMode({ kind: 'look', tile, things: outcome.ok ? (outcome.looked ?? []) : [], detailId });
  };

  const chooseWeapon = (weapon: Weapon) => {
    if (!survivor) return;
    if (weapon.ammo !== null && weapon.ammo <= 0) {
      setMessage(MESSAGES.outOfAmmo);
      return;
    }
    if (survivor.attackActions + survivor.actions * survivor.attacksPerAction < weapon.attackCost) {
      setMessage(MESSAGES.notEnoughActions);
      return;
    }
    open({ kind: 'aim', weaponId: weapon.id });
  };

  const chooseSquare = (weaponId: string, tile: Point) => {
    const squares = targetSquares(state, weaponId);
    if (!squares.some((p) => p.x === tile.x && p.y === tile.y)) {
      setMessage(MESSAGES.outOfRange);
      return;
    }
    setMessage(null);
    setCursor(null);
    setMode({ kind: 'targets', weaponId, tile });
  };

  const attack = (weaponId: string, tile: Point, target: Thing) => {
    if (act({ type: 'attack', weaponId, x: tile.x, y: tile.y, targetId: target.id })) setMode(IDLE);
  };

  const interactWith = (thing: Thing) => {
    if (!survivor) return;
    if (thing.kind === 'item') {
      act({ type: 'pick', itemId: thing.id });
      return;
    }
    const target = state.interactibles.find((i) => i.id === thing.id);
    if (target?.kind === 'cryochamber') {
      if (survivor.actions < 1) setMessage(MESSAGES.cryochamberNeedsAction);
      else {
        setMessage(null);
        setMode({ kind: 'name', targetId: thing.id });
      }
      return;
    }
    act({ type: 'interact', targetId: thing.id });
  };

  // ----- what the panels list -----
  const weapons = survivor ? weaponsOf(survivor) : [];
  const lookEntries = (() => {
    if (mode.kind !== 'look') return [];
    const things = mode.things ?? visibleTiles(state).flatMap((t) => thingsAt(state, t.x, t.y));
    return things.map((thing) => ({ thing, action: 'Look', detail: mode.detailId === thing.id ? describeThing(state, thing) : null }));
  })();
  const interactEntries = (() => {
    if (mode.kind !== 'interact' || !survivor) return [];
    const near = interactTargets(state).map((thing) => ({ thing, action: interactLabel(state, thing) }));
    const floor = state.items
      .filter((i) => i.x === survivor.x && i.y === survivor.y)
      .map((i) => ({ thing: { id: i.id, kind: 'item' as const, name: i.name, x: survivor.x, y: survivor.y, hp: null, hpMax: null }, action: 'Pick up' }));
    return [...near, ...floor];
  })();
  const targets = mode.kind === 'targets' ? targetsAt(state, mode.weaponId, mode.tile.x, mode.tile.y) : [];

  const highlight: Highlight | null =
    mode.kind === 'move'
      ? { tiles: moveOptions(state), tone: 'move' }
      : mode.kind === 'look'
        ? { tiles: visibleTiles(state), tone: 'look' }
        : mode.kind === 'aim'
          ? { tiles: targetSquares(state, mode.weaponId), tone: 'target' }
          : null;
  const chosen = mode.kind === 'targets' ? mode.tile : mode.kind === 'look' ? mode.tile : null;

  const onTileClick = (tile: Point) => {
    if (!canAct || !survivor) return;
    if (mode.kind === 'look') lookAt(tile);
    else if (mode.kind === 'aim') chooseSquare(mode.weaponId, tile);
    else if (mode.kind === 'idle' || mode.kind === 'move') {
      if (Math.abs(tile.x - survivor.x) + Math.abs(tile.y - survivor.y) === 1) move(tile.x - survivor.x, tile.y - survivor.y);
    }
  };

  const back = () => {
    setMessage(null);
    if (mode.kind === 'targets') open({ kind: 'aim', weaponId: mode.weaponId });
    else if (mode.kind === 'aim') open({ kind: 'attack' });
    else if (mode.kind === 'inventory' && mode.menuFor) setMode({ kind: 'inventory', menuFor: null });
    else if (mode.kind === 'look' && mode.tile) open({ kind: 'look', tile: null, things: null, detailId: null });
    else if (mode.kind === 'name') setMode({ kind: 'interact' });
    else open(IDLE);
  };

  const toggle = (kind: MenuKind) => {
    if (mode.kind === kind || (kind === 'attack' && (mode.kind === 'aim' || mode.kind === 'targets'))) open(IDLE);
    else if (kind === 'look') open({ kind: 'look', tile: null, things: null, detailId: null });
    else if (kind === 'inventory') open({ kind: 'inventory', menuFor: null });
    else open({ kind });
  };

  const pass = () => {
    if (act({ type: 'pass' })) setMode(IDLE);
  };

  return {
    survivor,
    mode,
    setMode,
    cursor,
    setCursor,
    message,
    act,
    move,
    lookAt,
    chooseWeapon,
    chooseSquare,
    attack,
    interactWith,
    back,
    toggle,
    pass,
    onTileClick,
    weapons,
    lookEntries,
    interactEntries,
    targets,
    highlight,
    chosen,
  };
}

export type GameControls = ReturnType<typeof useGameControls>;
