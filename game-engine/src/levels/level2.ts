import type { LevelDef } from '../types.ts';
import { LEGEND } from './legend.ts';

/**
 * Floor 2: the vault. Bigger deck (9 drones, 6 runners, 3 bloaters), three vents, a bloater guarding
 * the corridor and the stairs far away in the north-east. A kevlar vest lies in the first room.
 */
export const level2: LevelDef = {
  id: 'vault',
  name: 'Floor 2 - The vault',
  tileSet: {
    legend: LEGEND,
    rows: [
      '##################',
      '#<.....#.......>.#',
      '#......#..v......#',
      '#......=.........#',
      '#......#...,,....#',
      '###.####.....#####',
      '#.......,....#...#',
      '#..v.........=...#',
      '#............#.v.#',
      '#......###.......#',
      '#................#',
      '##################',
    ],
  },
  baseSurvivors: [],
  interactibles: [{ kind: 'terminal', name: 'Vault terminal', x: 10, y: 10 }],
  floorItems: [
    { type: 'vest', x: 4, y: 2 },
    { type: 'burstPistol', x: 2, y: 10 },
  ],
  waveDeck: [
    ['drone', 'drone', 'drone'],
    ['drone', 'drone'],
    ['drone', 'runner'],
    ['drone', 'drone'],
    ['runner', 'runner'],
    ['runner', 'runner'],
    ['runner'],
    ['bloater'],
    ['bloater', 'drone'],
    ['bloater'],
  ],
  startXY: { x: 1, y: 1 },
  startingEnemies: [
    { kind: 'bloater', x: 9, y: 6 },
    { kind: 'drone', x: 12, y: 3 },
    { kind: 'runner', x: 15, y: 9 },
    { kind: 'bloater', x: 14, y: 2 },
    { kind: 'drone', x: 14, y: 2 },
  ],
  spawnColor: 'red',
  stairs: { x: 15, y: 1 },
};
