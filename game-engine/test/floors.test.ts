import { describe, expect, it } from 'vitest';
import { createGame, legalActions, FLOORS, floorTiles, SURVIVOR } from '../src/index.ts';
import type { EnemyKind } from '../src/index.ts';
import { distanceField, gridOf, isPassable, UNREACHABLE } from '../src/grid.ts';
import type { Survivor } from '../src/index.ts';

function count(deck: EnemyKind[][], kind: EnemyKind): number {
  return deck.flat().filter((k) => k === kind).length;
}

describe('floors', () => {
  it('has the spec wave decks', () => {
    const [one, two] = FLOORS;
    expect([count(one!.waveDeck, 'drone'), count(one!.waveDeck, 'runner'), count(one!.waveDeck, 'bloater')]).toEqual([6, 4, 2]);
    expect([count(two!.waveDeck, 'drone'), count(two!.waveDeck, 'runner'), count(two!.waveDeck, 'bloater')]).toEqual([9, 6, 3]);
  });

  it('level 1 has starting enemies on one tile, an upgrade station and a cryochamber', () => {
    const one = FLOORS[0]!;
    expect(new Set(one.startingEnemies.map((e) => `${e.x},${e.y}`)).size).toBe(1);
    expect(one.interactibles.map((i) => i.kind)).toEqual(expect.arrayContaining(['upgradeStation', 'cryochamber']));
  });

  it('places everything on passable tiles and has spawn tiles', () => {
    for (const level of FLOORS) {
      const grid = gridOf(level);
      expect(grid.spawnCells.length).toBeGreaterThan(0);
      const points = [level.startXY, level.stairs, ...level.startingEnemies, ...level.interactibles, ...level.floorItems];
      for (const p of points) expect(isPassable(grid, p.x, p.y), `${level.id} ${p.x},${p.y}`).toBe(true);
    }
  });

  it('connects the start to the stairs, every spawn tile, enemy, interactible and floor item', () => {
    for (const level of FLOORS) {
      const grid = gridOf(level);
      const field = distanceField(grid, [{ ...level.startXY } as Survivor]);
      const spawns = grid.spawnCells.map((i) => ({ x: i % grid.width, y: Math.floor(i / grid.width) }));
      const points = [level.stairs, ...spawns, ...level.startingEnemies, ...level.interactibles, ...level.floorItems];
      for (const p of points) expect(field[p.y * grid.width + p.x], `${level.id} ${p.x},${p.y}`).not.toBe(UNREACHABLE);
    }
  });

  it('keeps every floor browser-sized (roughly 12 to 24 tiles a side)', () => {
    for (const level of FLOORS) {
      const grid = gridOf(level);
      expect(grid.width).toBeGreaterThanOrEqual(12);
      expect(grid.width).toBeLessThanOrEqual(24);
      expect(grid.height).toBeGreaterThanOrEqual(10);
      expect(grid.height).toBeLessThanOrEqual(24);
    }
  });

  it('starts with the spec survivor constants and the revolver and burst pistol stats', () => {
    const state = createGame({ seed: 1 });
    expect(floorTiles(state).tiles).toHaveLength(16 * 11);
    for (const s of state.survivors) {
      expect(s).toMatchObject({ hp: 5, hpMax: 5, actions: 3, actionsMax: 3, movesPerAction: 2, attacksPerAction: 2, xp: 0 });
    }
    expect(SURVIVOR).toEqual({ hp: 5, actions: 3, movesPerAction: 2, attacksPerAction: 2 });
    expect(state.survivors[0]!.inventory[0]).toMatchObject({ name: 'Revolver', ammo: 6, ammoMax: 6, range: 3, attackCost: 2, pointBlank: 0 });
    expect(state.survivors[1]!.inventory[0]).toMatchObject({ name: 'Burst pistol', ammo: 9, ammoMax: 9, burst: 3, range: 2 });
    expect(state.survivors[0]!.unarmed[0]).toMatchObject({ name: 'Punch', attackCost: 1 });
    expect(state.enemies.map((e) => [e.name, e.hp, e.actionsMax, e.move, e.xp])[0]).toEqual(['Drone', 1, 2, 1, 2]);
    expect(legalActions(state).at(-1)).toEqual({ type: 'pass' });
  });
});
