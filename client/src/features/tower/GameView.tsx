import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import {
  MESSAGES,
  activeSurvivor,
  hashState,
  interactTargets,
  floorTiles,
  moveOptions,
  targetSquares,
  targetsAt,
  thingsAt,
  toReplayFile,
  visibleTiles,
  weaponsOf,
  type Action,
  type GameState,
  type Item,
  type Point,
  type Survivor,
  type Thing,
  type Weapon,
} from '@site/game-engine';
import { ActionDots, HealthBar } from './bits.tsx';
import type { Highlight } from './draw.ts';
import { EMPTY, InventoryPanel, NamePrompt, TargetList, ThingList, WeaponCards } from './panels.tsx';
import type { SceneStore } from './scene-store.ts';
import { TileMap, type TileMapHandle } from './TileMap.tsx';
import { useTowerGame, type Game } from './useTowerGame.ts';

type Mode =
  | { kind: 'idle' }
  | { kind: 'move' }
  | { kind: 'look'; tile: Point | null; things: Thing[] | null; detailId: string | null }
  | { kind: 'interact' }
  | { kind: 'inventory'; menuFor: string | null }
  | { kind: 'attack' }
  | { kind: 'aim'; weaponId: string }
  | { kind: 'targets'; weaponId: string; tile: Point }
  | { kind: 'name'; targetId: string };

const IDLE: Mode = { kind: 'idle' };
const DIRECTIONS: Record<string, Point> = { w: { x: 0, y: -1 }, a: { x: -1, y: 0 }, s: { x: 0, y: 1 }, d: { x: 1, y: 0 } };

type Props = { initial: Game; speed: number; paused: boolean; onHelp: () => void; onNewGame: () => void };

/** The game screen: header, map, sub-panels and the bottom menu, with the spec's keyboard controls. */
export function GameView({ initial, speed, paused, onHelp, onNewGame }: Props) {
  const { game, busy, perform, store, log } = useTowerGame(initial, speed);
  const state = game.state;
  const survivor = activeSurvivor(state);
  const [mode, setMode] = useState<Mode>(IDLE);
  const [cursor, setCursor] = useState<Point | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const mapHandle = useRef<TileMapHandle>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const level = floorTiles(state);
  const levelDef = state.levels[state.levelIndex];
  const stateHash = useMemo(() => hashState(state), [state]);
  const playing = state.status === 'playing';
  const canAct = playing && !busy && !paused && survivor !== null;

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

  /** After a click on a menu button the keys belong to the game again (space must not re-press the button). */
  const refocus = () => rootRef.current?.focus({ preventScroll: true });

  const toggle = (kind: 'move' | 'attack' | 'inventory' | 'look' | 'interact') => {
    if (mode.kind === kind || (kind === 'attack' && (mode.kind === 'aim' || mode.kind === 'targets'))) open(IDLE);
    else if (kind === 'look') open({ kind: 'look', tile: null, things: null, detailId: null });
    else if (kind === 'inventory') open({ kind: 'inventory', menuFor: null });
    else open({ kind });
  };

  const pass = () => {
    if (act({ type: 'pass' })) setMode(IDLE);
  };

  // ----- keyboard (section 2): one listener, always calling the latest handler -----
  const onKey = useRef<(e: KeyboardEvent) => void>(() => undefined);
  useEffect(() => {
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
          const next = { x: clamp(base.x + dir.x, 0, level.width - 1), y: clamp(base.y + dir.y, 0, level.height - 1) };
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

  const exportReplay = () => {
    const file = toReplayFile(game.seed, game.actions, state);
    const blob = new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `tower-replay-${game.seed}-round-${state.round}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  // ----- the sub-panel under the map -----
  let panel = null;
  if (canAct && survivor) {
    if (mode.kind === 'move') {
      panel = (
        <section className="tower-panel tower-hint" aria-label="Move">
          Click a blue tile or use w a s d. {survivor.moveActions > 0 ? `${survivor.moveActions} move left from this action.` : 'A step uses one action for 2 moves.'}
        </section>
      );
    } else if (mode.kind === 'look') {
      panel = (
        <ThingList
          title={mode.tile ? `Look: tile ${mode.tile.x}, ${mode.tile.y}` : 'Look: choose a tile'}
          entries={lookEntries}
          empty={EMPTY.look}
          testId="look-list"
          onChoose={(thing) => lookAt({ x: thing.x, y: thing.y }, thing.id)}
        />
      );
    } else if (mode.kind === 'interact') {
      panel = <ThingList title="Interact" entries={interactEntries} empty={EMPTY.interact} testId="interact-list" onChoose={interactWith} />;
    } else if (mode.kind === 'inventory') {
      panel = (
        <>
          <InventoryPanel
            items={survivor.inventory}
            menuFor={mode.menuFor}
            onMenu={(menuFor) => setMode({ kind: 'inventory', menuFor })}
            onReload={(item: Item) => {
              if (act({ type: 'reload', itemId: item.id })) setMode({ kind: 'inventory', menuFor: null });
            }}
            onDrop={(item: Item) => {
              if (act({ type: 'drop', itemId: item.id })) setMode({ kind: 'inventory', menuFor: null });
            }}
          />
          <Augments survivor={survivor} onInstall={(augmentId) => act({ type: 'augment', augmentId })} />
        </>
      );
    } else if (mode.kind === 'attack') {
      panel = <WeaponCards weapons={weapons} onChoose={chooseWeapon} />;
    } else if (mode.kind === 'aim') {
      const weapon = weapons.find((w) => w.id === mode.weaponId);
      panel = (
        <section className="tower-panel tower-hint" aria-label="Aim">
          {weapon?.name}: choose a red square (click it, or move the cursor with w a s d and press space).
        </section>
      );
    } else if (mode.kind === 'targets') {
      const tile = mode.tile;
      const weaponId = mode.weaponId;
      panel = <TargetList targets={targets} onAttack={(target) => attack(weaponId, tile, target)} />;
    }
  }

  const menuButton = (kind: 'move' | 'attack' | 'inventory' | 'look' | 'interact', label: string, badge: string | null, hotkey: string) => {
    const active = mode.kind === kind || (kind === 'attack' && (mode.kind === 'aim' || mode.kind === 'targets'));
    return (
      <button
        type="button"
        className={`tower-menu-button${active ? ' active' : ''}`}
        aria-pressed={active}
        disabled={!canAct}
        onClick={() => {
          toggle(kind);
          refocus();
        }}
        aria-keyshortcuts={hotkey}
      >
        <span className="tower-menu-label">{label}</span>
        {badge !== null ? (
          <span className="tower-badge" data-testid={`${kind}-badge`}>
            {badge}
          </span>
        ) : null}
        <kbd>{hotkey}</kbd>
      </button>
    );
  };

  const lastLines = log.slice(-4);

  return (
    <div
      className="tower-game"
      ref={rootRef}
      tabIndex={-1}
      data-testid="tower-board"
      data-seed={game.seed}
      data-state-hash={stateHash}
      data-actions={game.actions.length}
      data-round={state.round}
      data-phase={state.phase}
      data-status={state.status}
      data-level={state.levelIndex}
      data-active={state.activeSurvivorId ?? ''}
      data-busy={busy ? 'true' : 'false'}
      data-mode={mode.kind}
    >
      <header className="tower-header">
        <div className="tower-title">
          <h1>Microsoft Tower</h1>
          <p className="tower-subtitle">
            {levelDef?.name} · Round {state.round} · Seed <code data-testid="tower-seed">{game.seed}</code>
          </p>
        </div>
        <div className="tower-header-buttons">
          <button type="button" className="button" onClick={exportReplay} data-testid="export-replay">
            Export replay
          </button>
          <button type="button" className="button" onClick={onNewGame}>
            New Game
          </button>
          <button type="button" className="button tower-help-button" aria-label="How to play" title="How to play" onClick={onHelp}>
            ?
          </button>
        </div>
      </header>

      <div className="tower-stage">
        <TileMap
          handle={mapHandle}
          store={store}
          tiles={level.tiles}
          mapWidth={level.width}
          mapHeight={level.height}
          activeId={busy ? null : state.activeSurvivorId}
          highlight={canAct ? highlight : null}
          cursor={canAct ? cursor : null}
          chosen={canAct ? chosen : null}
          onTileClick={onTileClick}
          label={`Map of ${levelDef?.name ?? 'the tower'}`}
          focus={survivor ? { x: survivor.x, y: survivor.y } : null}
        />
        <div className="tower-map-tools">
          <button type="button" className="tower-tool" aria-label="Zoom in" onClick={() => mapHandle.current?.zoomBy(1.25)}>
            +
          </button>
          <button type="button" className="tower-tool" aria-label="Zoom out" onClick={() => mapHandle.current?.zoomBy(0.8)}>
            −
          </button>
          <button type="button" className="tower-tool" aria-label="Fit the map" onClick={() => mapHandle.current?.fit()}>
            ⤢
          </button>
        </div>
        {busy ? (
          <p className="tower-banner" role="status">
            Enemy turn…
          </p>
        ) : null}
        {lastLines.length > 0 ? (
          <ol className="tower-log" aria-label="What happened">
            {lastLines.map((line) => (
              <li key={line.id}>{line.text}</li>
            ))}
          </ol>
        ) : null}
        <div className="tower-drawer">
          {message ? (
            <p className="tower-message" role="alert" data-testid="game-message">
              {message}
            </p>
          ) : null}
          {panel}
        </div>
        {!playing && !busy ? <EndScreen state={state} seed={game.seed} onNewGame={onNewGame} onExport={exportReplay} /> : null}
      </div>

      <nav className="tower-menu-bar" aria-label="Game actions">
        <div className="tower-survivor" data-testid="survivor-bar">
          <button type="button" className="tower-cycle" aria-label="Previous survivor" disabled={!canAct} onClick={() => act({ type: 'cycle', direction: -1 })}>
            &lt;
          </button>
          <div className="tower-survivor-info">
            <span className="tower-survivor-name" data-testid="survivor-name">
              {survivor?.name ?? '—'}
            </span>
            {survivor ? (
              <>
                <ActionDots actions={survivor.actions} max={survivor.actionsMax} />
                <HealthBar hp={survivor.hp} hpMax={survivor.hpMax} label={survivor.name} />
                <span className="tower-xp">{survivor.xp} XP</span>
              </>
            ) : null}
          </div>
          <button type="button" className="tower-cycle" aria-label="Next survivor" disabled={!canAct} onClick={() => act({ type: 'cycle', direction: 1 })}>
            &gt;
          </button>
        </div>
        <div className="tower-buttons">
          {menuButton('move', 'Move', survivor ? String(survivor.moveActions + survivor.actions * survivor.movesPerAction) : null, 'W A S D')}
          {menuButton('attack', 'Attack', survivor && survivor.attackActions > 0 ? `⚡${survivor.attackActions}` : null, 'F')}
          {menuButton('inventory', 'Inventory', null, 'Q')}
          {menuButton('look', 'Look', null, 'C')}
          {menuButton('interact', 'Interact', null, 'E')}
          <button
            type="button"
            className="tower-menu-button pass"
            disabled={!canAct}
            onClick={() => {
              pass();
              refocus();
            }}
            aria-keyshortcuts="Enter"
          >
            <span className="tower-menu-label">Pass</span>
            <kbd>Enter</kbd>
          </button>
        </div>
      </nav>
      <ActorList store={store} />
      {mode.kind === 'name' ? (
        <NamePrompt
          onCancel={() => setMode({ kind: 'interact' })}
          onSubmit={(name) => {
            if (act({ type: 'interact', targetId: mode.targetId, name })) setMode(IDLE);
            else setMode({ kind: 'interact' });
          }}
        />
      ) : null}
    </div>
  );
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function interactLabel(state: GameState, thing: Thing): string {
  const kind = state.interactibles.find((i) => i.id === thing.id)?.kind;
  if (kind === 'cryochamber') return 'Open';
  if (kind === 'upgradeStation') return 'Upgrade';
  if (kind === 'stairs') return 'Climb';
  return 'Interact';
}

function describeThing(state: GameState, thing: Thing): string {
  if (thing.kind === 'enemy') {
    const e = state.enemies.find((v) => v.id === thing.id);
    return e ? `${e.kind}: moves ${e.move}, ${e.actionsMax} actions, worth ${e.xp} XP` : '';
  }
  if (thing.kind === 'survivor') {
    const s = state.survivors.find((v) => v.id === thing.id);
    return s ? `${s.actions} actions left, ${s.xp} XP, carries ${s.inventory.map((i) => i.name).join(', ') || 'nothing'}` : '';
  }
  if (thing.kind === 'item') return state.items.find((i) => i.id === thing.id)?.description ?? '';
  const i = state.interactibles.find((v) => v.id === thing.id);
  const notes: Record<string, string> = {
    stairs: 'The way up. Everyone standing must be on it.',
    entrance: 'The way you came in.',
    cryochamber: 'Someone is asleep inside.',
    brokenCryochamber: 'Empty now.',
    upgradeStation: 'Upgrades a revolver or burst pistol for 3 XP.',
    terminal: 'Dead screen.',
  };
  return i ? (notes[i.kind] ?? '') : '';
}

function Augments({ survivor, onInstall }: { survivor: Survivor; onInstall: (augmentId: string) => void }) {
  if (survivor.augments.length === 0) return null;
  return (
    <section className="tower-panel tower-augments" aria-label="Augments">
      <h2 className="tower-panel-title">Augments ({survivor.xp} XP)</h2>
      <ul className="tower-list">
        {survivor.augments.map((a) => (
          <li key={a.id} className="tower-entry">
            <span className="tower-entry-name">
              {a.name}
              <span className="tower-entry-detail">{a.description}</span>
            </span>
            <span className="tower-entry-kind">{a.installed ? 'installed' : `${a.cost} XP`}</span>
            <button type="button" className="button tower-small-button" disabled={a.installed} onClick={() => onInstall(a.id)}>
              Install
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The board as text, from the drawn scene: for screen readers and for the browser tests. */
function ActorList({ store }: { store: SceneStore }) {
  const scene = useSyncExternalStore(
    (listener) => store.subscribe(listener),
    () => store.get(),
  );
  return (
    <ul className="visually-hidden" aria-label="Who is where" data-testid="actor-list">
      {scene.tokens.map((t) => (
        <li key={t.id} data-actor-id={t.id} data-side={t.side} data-x={t.x} data-y={t.y} data-hp={t.hp}>
          {t.name} ({t.side === 'survivor' ? 'survivor' : t.kind}) at {t.x}, {t.y}, health {t.hp} of {t.hpMax}
        </li>
      ))}
    </ul>
  );
}

export function EndScreen({ state, seed, onNewGame, onExport }: { state: GameState; seed: string; onNewGame: () => void; onExport: () => void }) {
  const won = state.status === 'won';
  const titleId = useId();
  return (
    <div className={`tower-end ${won ? 'won' : 'lost'}`} role="dialog" aria-modal="false" aria-labelledby={titleId} data-testid="end-screen">
      <div className="tower-modal-box">
        <h2 id={titleId}>{won ? 'You escaped the tower!' : 'Game over'}</h2>
        <p>
          {won
            ? `${state.survivors.map((s) => s.name).join(', ')} made it out in ${state.round} rounds.`
            : `The tower claimed your team in round ${state.round}.`}{' '}
          Seed <code>{seed}</code>.
        </p>
        <div className="tower-row">
          <button type="button" className="button primary" onClick={onNewGame}>
            New Game
          </button>
          <button type="button" className="button" onClick={onExport}>
            Export replay
          </button>
        </div>
      </div>
    </div>
  );
}
