import { makeEnemy, makeItem } from './catalogue.ts';
import type { Draft } from './draft.ts';
import type { Interactible, Survivor } from './types.ts';

/**
 * Loads level `index` into the draft: its enemies, interactibles (plus its stairs and, above the first
 * floor, the way back), floor items and a full wave deck. `survivors` are moved to its start.
 */
export function loadLevel(d: Draft, index: number, survivors: Survivor[]): void {
  const level = d.state.levels[index];
  if (!level) throw new Error(`Missing level ${index}`);
  d.state.levelIndex = index;
  d.state.survivors = survivors.map((s) => ({ ...s, x: level.startXY.x, y: level.startXY.y }));
  d.state.enemies = level.startingEnemies.map((e) => makeEnemy(e.kind, d.newId('e'), e.x, e.y));
  const interactibles: Interactible[] = [];
  if (index > 0) {
    interactibles.push({ id: d.newId('x'), kind: 'entrance', name: 'Stairs down', x: level.startXY.x, y: level.startXY.y });
  }
  for (const it of level.interactibles) interactibles.push({ id: d.newId('x'), ...it });
  interactibles.push({ id: d.newId('x'), kind: 'stairs', name: 'Stairs up', x: level.stairs.x, y: level.stairs.y });
  d.state.interactibles = interactibles;
  d.state.items = level.floorItems.map((f) => makeItem(f.type, d.newId('i'), f.x, f.y));
  d.state.deck = level.waveDeck.map((_, i) => i);
}
