import { makeEnemy, makeItem } from './catalogue.ts';
import type { Draft } from './draft.ts';
import type { Interactible, Survivor } from './types.ts';

/**
 * Loads floor `index` into the draft: its enemies, interactibles (plus its stairs and, above the first
 * floor, the way back), floor items and a full wave deck. `survivors` are moved to its start.
 */
export function loadFloor(d: Draft, index: number, survivors: Survivor[]): void {
  const floor = d.state.levels[index];
  if (!floor) throw new Error(`Missing floor ${index}`);
  d.state.levelIndex = index;
  d.state.survivors = survivors.map((s) => ({ ...s, x: floor.startXY.x, y: floor.startXY.y }));
  d.state.enemies = floor.startingEnemies.map((e) => makeEnemy(e.kind, d.newId('e'), e.x, e.y, d.state.rules));
  const interactibles: Interactible[] = [];
  if (index > 0) {
    interactibles.push({ id: d.newId('x'), kind: 'entrance', name: 'Stairs down', x: floor.startXY.x, y: floor.startXY.y });
  }
  for (const it of floor.interactibles) interactibles.push({ id: d.newId('x'), ...it });
  interactibles.push({ id: d.newId('x'), kind: 'stairs', name: 'Stairs up', x: floor.stairs.x, y: floor.stairs.y });
  d.state.interactibles = interactibles;
  d.state.items = floor.floorItems.map((f) => makeItem(f.type, d.newId('i'), f.x, f.y, d.state.rules));
  d.state.deck = floor.waveDeck.map((_, i) => i);
}
