import { useEffect, useRef, useState } from 'react';
import { MESSAGES, type Item, type Thing, type Weapon } from '@site/game-engine';
import { HealthBar } from './bits.tsx';
import { FormButtons } from '../../components/FormButtons.tsx';

/** The spec's empty messages for the sub-panels. */
export const EMPTY = {
  look: MESSAGES.nothingToLookAt,
  interact: MESSAGES.nothingToDo,
  targets: MESSAGES.noValidTargets,
  inventory: 'Your pockets are empty',
} as const;

type Entry = { thing: Thing; action: string; detail?: string | null };

/** The Look and Interact lists: a name, a health bar (for the living) and one button per entry. */
export function ThingList({
  title,
  entries,
  empty,
  onChoose,
  testId,
}: {
  title: string;
  entries: Entry[];
  empty: string;
  onChoose: (thing: Thing, index: number) => void;
  testId: string;
}) {
  return (
    <section className="tower-panel" aria-label={title} data-testid={testId}>
      <h2 className="tower-panel-title">{title}</h2>
      {entries.length === 0 ? (
        <p className="tower-empty" role="status">
          {empty}
        </p>
      ) : (
        <ul className="tower-list">
          {entries.map((entry, index) => (
            <li key={`${entry.thing.kind}-${entry.thing.id}`} className={`tower-entry ${entry.thing.kind}`}>
              <span className="tower-entry-key" aria-hidden="true">
                {index < 4 ? index + 1 : ''}
              </span>
              <span className="tower-entry-name">
                {entry.thing.name}
                {entry.detail ? <span className="tower-entry-detail">{entry.detail}</span> : null}
              </span>
              {entry.thing.hp !== null && entry.thing.hpMax !== null ? (
                <HealthBar hp={entry.thing.hp} hpMax={entry.thing.hpMax} label={entry.thing.name} />
              ) : (
                <span className="tower-entry-kind">{entry.thing.kind === 'item' ? 'item' : 'object'}</span>
              )}
              <button type="button" className="button tower-small-button" onClick={() => onChoose(entry.thing, index)}>
                {entry.action}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function itemSummary(item: Item): string {
  if (item.kind === 'armor') return `Armour -${item.armor} damage`;
  const ammo = item.ammo === null ? 'no ammo needed' : `ammo ${item.ammo}/${item.ammoMax ?? item.ammo}`;
  return `${ammo} · range ${item.range} · cost ${item.attackCost}${item.burst > 1 ? ` · burst ${item.burst}` : ''}`;
}

function diceText(weapon: Weapon): string {
  return weapon.damageDice.map((d) => `[${d.faces.map((f) => f.value).join(' ')}]`).join(' + ');
}

/**
 * Item cards. Hovering or focusing a card shows its detail; right-click (or its ⋮ button, or its
 * number key) opens the context menu of Reload and Drop.
 */
export function InventoryPanel({
  items,
  menuFor,
  onMenu,
  onReload,
  onDrop,
}: {
  items: Item[];
  menuFor: string | null;
  onMenu: (itemId: string | null) => void;
  onReload: (item: Item) => void;
  onDrop: (item: Item) => void;
}) {
  const [hovered, setHovered] = useState<string | null>(null);
  const detail = items.find((i) => i.id === (hovered ?? menuFor));
  const menuRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    menuRef.current?.querySelector('button')?.focus();
  }, [menuFor]);
  return (
    <section className="tower-panel" aria-label="Inventory" data-testid="inventory-panel">
      <h2 className="tower-panel-title">Inventory</h2>
      {items.length === 0 ? (
        <p className="tower-empty" role="status">
          {EMPTY.inventory}
        </p>
      ) : (
        <div className="tower-cards">
          {items.map((item, index) => (
            <div
              key={item.id}
              className={`tower-card${menuFor === item.id ? ' open' : ''}`}
              data-testid="item-card"
              onMouseEnter={() => setHovered(item.id)}
              onMouseLeave={() => setHovered(null)}
              onContextMenu={(e) => {
                e.preventDefault();
                onMenu(item.id);
              }}
            >
              <button
                type="button"
                className="tower-card-face"
                aria-haspopup="menu"
                aria-expanded={menuFor === item.id}
                onFocus={() => setHovered(item.id)}
                onBlur={() => setHovered(null)}
                onClick={() => onMenu(menuFor === item.id ? null : item.id)}
              >
                <span className="tower-card-key" aria-hidden="true">
                  {index + 1}
                </span>
                <span className="tower-card-name">{item.name}</span>
                <span className="tower-card-stat">{item.kind === 'weapon' && item.ammo !== null ? `${item.ammo}/${item.ammoMax ?? ''}` : item.kind === 'armor' ? 'armour' : '∞'}</span>
              </button>
              {menuFor === item.id ? (
                <div className="tower-menu" role="menu" aria-label={`${item.name} actions`} ref={menuRef}>
                  <button type="button" role="menuitem" disabled={item.kind !== 'weapon' || item.ammo === null} onClick={() => onReload(item)}>
                    Reload
                  </button>
                  <button type="button" role="menuitem" onClick={() => onDrop(item)}>
                    Drop
                  </button>
                </div>
              ) : null}
            </div>
          ))}
        </div>
      )}
      <p className="tower-card-detail" aria-live="polite">
        {detail ? (
          <>
            <strong>{detail.name}</strong>: {detail.description} <span className="muted">({itemSummary(detail)}{detail.kind === 'weapon' ? `, damage ${diceText(detail)}` : ''})</span>
          </>
        ) : items.length > 0 ? (
          'Hover a card for details; right-click or press its number for Reload and Drop.'
        ) : null}
      </p>
    </section>
  );
}

/** The Attack panel: one card per weapon (carried weapons first, then fists and lasers). */
export function WeaponCards({ weapons, onChoose }: { weapons: Weapon[]; onChoose: (weapon: Weapon) => void }) {
  return (
    <section className="tower-panel" aria-label="Attack" data-testid="weapon-cards">
      <h2 className="tower-panel-title">Attack: choose a weapon</h2>
      <div className="tower-cards">
        {weapons.map((weapon, index) => (
          <div key={weapon.id} className="tower-card weapon" title={weapon.description}>
            <button type="button" className="tower-card-face" onClick={() => onChoose(weapon)}>
              <span className="tower-card-key" aria-hidden="true">
                {index + 1}
              </span>
              <span className="tower-card-name">{weapon.name}</span>
              <span className="tower-card-stat">{itemSummary(weapon)}</span>
            </button>
          </div>
        ))}
      </div>
    </section>
  );
}

/** The enemies on the chosen square, each with its health and a crosshair button. */
export function TargetList({ targets, onAttack }: { targets: Thing[]; onAttack: (target: Thing) => void }) {
  return (
    <section className="tower-panel" aria-label="Targets" data-testid="target-list">
      <h2 className="tower-panel-title">Choose a target</h2>
      {targets.length === 0 ? (
        <p className="tower-empty" role="status">
          {EMPTY.targets}
        </p>
      ) : (
        <ul className="tower-list">
          {targets.map((target, index) => (
            <li key={target.id} className="tower-entry enemy">
              <span className="tower-entry-key" aria-hidden="true">
                {index < 4 ? index + 1 : ''}
              </span>
              <span className="tower-entry-name">{target.name}</span>
              {target.hp !== null && target.hpMax !== null ? <HealthBar hp={target.hp} hpMax={target.hpMax} label={target.name} /> : null}
              <button type="button" className="button tower-crosshair" aria-label={`Attack ${target.name}`} onClick={() => onAttack(target)}>
                <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
                  <circle cx="12" cy="12" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
                  <path d="M12 2v6M12 16v6M2 12h6M16 12h6" stroke="currentColor" strokeWidth="2" />
                </svg>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The cryochamber's prompt: the sleeper's name. */
export function NamePrompt({ onSubmit, onCancel }: { onSubmit: (name: string) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  return (
    <div className="tower-modal" role="dialog" aria-modal="true" aria-labelledby="tower-name-title">
      <form
        className="tower-modal-box"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit(name.trim() || 'Sleeper');
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onCancel();
        }}
      >
        <h2 id="tower-name-title">Someone is waking up</h2>
        <label className="field">
          <span>What is the survivor's name?</span>
          <input autoFocus value={name} maxLength={24} onChange={(e) => setName(e.target.value)} placeholder="Sleeper" />
        </label>
        <FormButtons className="tower-row" submit="Open the chamber" onCancel={onCancel} />
      </form>
    </div>
  );
}
