import type { Item, Survivor } from '@site/game-engine';
import { EMPTY, InventoryPanel, TargetList, ThingList, WeaponCards } from './panels.tsx';
import { useCoarsePointer } from '../../lib/pointer.ts';
import type { GameControls } from './useGameControls.ts';

/** The Move mode's hint: a touch screen taps (and has no w a s d); a mouse clicks. */
export function moveHint(touch: boolean, moveActions: number): string {
  const how = touch ? 'Tap a blue tile.' : 'Click a blue tile or use w a s d.';
  return `${how} ${moveActions > 0 ? `${moveActions} move left from this action.` : 'A step uses one action for 2 moves.'}`;
}

/**
 * The sub-panel under the map for the open mode: the move hint, the Look and Interact lists, the
 * inventory with its augments, the weapon cards, the aiming hint and the target list. Nothing while
 * the survivors cannot act.
 */
export function SubPanel({ controls, canAct }: { controls: GameControls; canAct: boolean }) {
  const { survivor, mode, setMode, act, lookAt, interactWith, chooseWeapon, attack, weapons, lookEntries, interactEntries, targets } = controls;
  const touch = useCoarsePointer();
  if (!canAct || !survivor) return null;
  if (mode.kind === 'move') {
    return (
      <section className="tower-panel tower-hint" aria-label="Move">
        {moveHint(touch, survivor.moveActions)}
      </section>
    );
  }
  if (mode.kind === 'look') {
    return (
      <ThingList
        title={mode.tile ? `Look: tile ${mode.tile.x}, ${mode.tile.y}` : 'Look: choose a tile'}
        entries={lookEntries}
        empty={EMPTY.look}
        testId="look-list"
        onChoose={(thing) => lookAt({ x: thing.x, y: thing.y }, thing.id)}
      />
    );
  }
  if (mode.kind === 'interact') {
    return <ThingList title="Interact" entries={interactEntries} empty={EMPTY.interact} testId="interact-list" onChoose={interactWith} />;
  }
  if (mode.kind === 'inventory') {
    return (
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
  }
  if (mode.kind === 'attack') return <WeaponCards weapons={weapons} onChoose={chooseWeapon} />;
  if (mode.kind === 'aim') {
    const weapon = weapons.find((w) => w.id === mode.weaponId);
    return (
      <section className="tower-panel tower-hint" aria-label="Aim">
        {weapon?.name}: choose a red square (click it, or move the cursor with w a s d and press space).
      </section>
    );
  }
  if (mode.kind === 'targets') {
    const tile = mode.tile;
    const weaponId = mode.weaponId;
    return <TargetList targets={targets} onAttack={(target) => attack(weaponId, tile, target)} />;
  }
  return null;
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
