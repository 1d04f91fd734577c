import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createGame, weaponsOf, type Thing } from '@site/game-engine';
import { InventoryPanel, TargetList, ThingList, WeaponCards } from './panels.tsx';
import { moveHint } from './SubPanel.tsx';

const drone: Thing = { id: 'e1', kind: 'enemy', name: 'Drone', x: 3, y: 2, hp: 1, hpMax: 1 };
const chamber: Thing = { id: 'i1', kind: 'interactible', name: 'Cryochamber', x: 2, y: 4, hp: null, hpMax: null };

describe('the sub-panels', () => {
  it('Move: a touch screen is told to tap (it has no w a s d), a mouse to click', () => {
    expect(moveHint(true, 1)).toBe('Tap a blue tile. 1 move left from this action.');
    expect(moveHint(false, 0)).toBe('Click a blue tile or use w a s d. A step uses one action for 2 moves.');
  });

  it('Look: says "Try looking at something interesting" when the tile is empty', () => {
    render(<ThingList title="Look" entries={[]} empty="Try looking at something interesting" onChoose={() => undefined} testId="look-list" />);
    expect(screen.getByRole('status')).toHaveTextContent(/^Try looking at something interesting$/);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('Look: lists a name, a health bar and a Look button per thing', async () => {
    const onChoose = vi.fn();
    render(<ThingList title="Look" entries={[{ thing: drone, action: 'Look' }, { thing: chamber, action: 'Look' }]} empty="x" onChoose={onChoose} testId="look-list" />);
    const rows = screen.getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0] as HTMLElement).getByRole('meter', { name: 'Drone health' })).toHaveAttribute('aria-valuenow', '1');
    expect(within(rows[1] as HTMLElement).queryByRole('meter')).toBeNull();
    await userEvent.click(within(rows[1] as HTMLElement).getByRole('button', { name: 'Look' }));
    expect(onChoose).toHaveBeenCalledWith(chamber, 1);
  });

  it("Interact: says \"There's nothing to do here.\" with nothing in reach", () => {
    render(<ThingList title="Interact" entries={[]} empty="There's nothing to do here." onChoose={() => undefined} testId="interact-list" />);
    expect(screen.getByTestId('interact-list')).toHaveTextContent("There's nothing to do here.");
  });

  it('Attack targeting: says "There are no valid targets in this square" for an empty square', () => {
    render(<TargetList targets={[]} onAttack={() => undefined} />);
    expect(screen.getByRole('status')).toHaveTextContent(/^There are no valid targets in this square$/);
  });

  it('Attack targeting: a crosshair button and a health bar per enemy', async () => {
    const onAttack = vi.fn();
    render(<TargetList targets={[drone]} onAttack={onAttack} />);
    expect(screen.getByRole('meter', { name: 'Drone health' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Attack Drone' }));
    expect(onAttack).toHaveBeenCalledWith(drone);
  });

  it('Inventory: an empty message, and item cards whose context menu offers Reload and Drop', async () => {
    const { rerender } = render(<InventoryPanel items={[]} menuFor={null} onMenu={() => undefined} onReload={() => undefined} onDrop={() => undefined} />);
    expect(screen.getByRole('status')).toHaveTextContent('Your pockets are empty');

    const ada = createGame({ seed: 1 }).survivors[0];
    if (!ada) throw new Error('no survivor');
    const onMenu = vi.fn();
    const onDrop = vi.fn();
    rerender(<InventoryPanel items={ada.inventory} menuFor={null} onMenu={onMenu} onReload={() => undefined} onDrop={onDrop} />);
    const card = screen.getByTestId('item-card');
    expect(card).toHaveTextContent('Revolver');
    fireEvent.mouseEnter(card);
    expect(screen.getByText(/Six shots/)).toBeInTheDocument();
    fireEvent.contextMenu(card);
    expect(onMenu).toHaveBeenCalledWith(ada.inventory[0]?.id);

    rerender(<InventoryPanel items={ada.inventory} menuFor={ada.inventory[0]?.id ?? null} onMenu={onMenu} onReload={() => undefined} onDrop={onDrop} />);
    const menu = screen.getByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((b) => b.textContent)).toEqual(['Reload', 'Drop']);
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Drop' }));
    expect(onDrop).toHaveBeenCalledWith(ada.inventory[0]);
  });

  it('Attack: one weapon card per weapon, carried ones first', () => {
    const ada = createGame({ seed: 1 }).survivors[0];
    if (!ada) throw new Error('no survivor');
    render(<WeaponCards weapons={weaponsOf(ada)} onChoose={() => undefined} />);
    expect(screen.getAllByRole('button').map((b) => b.querySelector('.tower-card-name')?.textContent)).toEqual(['Revolver', 'Punch']);
  });
});
