import type { Survivor } from '@site/game-engine';
import { ActionDots, HealthBar } from './bits.tsx';
import { useDrawnScene, type SceneStore } from './scene-store.ts';
import type { MenuKind, Mode } from './useGameControls.ts';

type Props = {
  survivor: Survivor | null;
  /** The drawn scene: during the enemy turn's playback the bar shows the health the map shows, not the end result. */
  store: SceneStore;
  mode: Mode;
  canAct: boolean;
  onCycle: (direction: 1 | -1) => void;
  onToggle: (kind: MenuKind) => void;
  onPass: () => void;
  /** After a click on a menu button the keys belong to the game again (space must not re-press the button). */
  refocus: () => void;
};

/** The bottom menu: the active survivor (cycle buttons, actions, health, XP) and the action buttons. */
export function MenuBar({ survivor, store, mode, canAct, onCycle, onToggle, onPass, refocus }: Props) {
  const scene = useDrawnScene(store);
  const drawnHp = survivor ? (scene.tokens.find((t) => t.id === survivor.id)?.hp ?? survivor.hp) : 0;
  const button = (kind: MenuKind, label: string, badge: string | null, hotkey: string) => (
    <MenuButton kind={kind} label={label} badge={badge} hotkey={hotkey} mode={mode} canAct={canAct} onToggle={onToggle} refocus={refocus} />
  );
  return (
    <nav className="tower-menu-bar" aria-label="Game actions">
      <div className="tower-survivor" data-testid="survivor-bar">
        <button type="button" className="tower-cycle" aria-label="Previous survivor" disabled={!canAct} onClick={() => onCycle(-1)}>
          &lt;
        </button>
        <div className="tower-survivor-info">
          <span className="tower-survivor-name" data-testid="survivor-name">
            {survivor?.name ?? '—'}
          </span>
          {survivor ? (
            <>
              <ActionDots actions={survivor.actions} max={survivor.actionsMax} />
              <HealthBar hp={drawnHp} hpMax={survivor.hpMax} label={survivor.name} />
              <span className="tower-xp">{survivor.xp} XP</span>
            </>
          ) : null}
        </div>
        <button type="button" className="tower-cycle" aria-label="Next survivor" disabled={!canAct} onClick={() => onCycle(1)}>
          &gt;
        </button>
      </div>
      <div className="tower-buttons">
        {button('move', 'Move', survivor ? String(survivor.moveActions + survivor.actions * survivor.movesPerAction) : null, 'W A S D')}
        {button('attack', 'Attack', survivor && survivor.attackActions > 0 ? `⚡${survivor.attackActions}` : null, 'F')}
        {button('inventory', 'Inventory', null, 'Q')}
        {button('look', 'Look', null, 'C')}
        {button('interact', 'Interact', null, 'E')}
        <button
          type="button"
          className="tower-menu-button pass"
          disabled={!canAct}
          onClick={() => {
            onPass();
            refocus();
          }}
          aria-keyshortcuts="Enter"
        >
          <span className="tower-menu-label">Pass</span>
          <kbd>Enter</kbd>
        </button>
      </div>
    </nav>
  );
}

function MenuButton({
  kind,
  label,
  badge,
  hotkey,
  mode,
  canAct,
  onToggle,
  refocus,
}: {
  kind: MenuKind;
  label: string;
  badge: string | null;
  hotkey: string;
  mode: Mode;
  canAct: boolean;
  onToggle: (kind: MenuKind) => void;
  refocus: () => void;
}) {
  const active = mode.kind === kind || (kind === 'attack' && (mode.kind === 'aim' || mode.kind === 'targets'));
  return (
    <button
      type="button"
      className={`tower-menu-button${active ? ' active' : ''}`}
      aria-pressed={active}
      disabled={!canAct}
      onClick={() => {
        onToggle(kind);
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
}
