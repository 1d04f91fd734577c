import type { FloorDef } from '../types.ts';
import { LEGEND } from './legend.ts';

/**
 * Floor 2: the vault. Bigger deck (9 drones, 6 runners, 3 bloaters). The survivors arrive in the
 * north-west and must go round through the lower rooms (past a bloater at the rubble doorway), then up
 * a narrow ventilation shaft into the vault, where the stairs stand between three vents and a bloater
 * and a drone keep watch. Every vent of the floor is on that last stretch, so waves land next to
 * whoever is climbing the shaft or waiting on the stairs. A kevlar vest lies in the vault's corner.
 */
export const floor2: FloorDef = {
  id: 'vault',
  name: 'Floor 2 - The vault',
  tileSet: {
    legend: LEGEND,
    rows: [
      '######################',
      '#<...#.........#..v..#',
      '#....#.........#.v>v.#',
      '#....#.........#.....#',
      '#....#...###...#.....#',
      '#..............#.....#',
      '###.######.#####v#####',
      '#..........#...#,#...#',
      '#..........#...#v#...#',
      '#...###....=...#,#...#',
      '#..........#...#v#...#',
      '#..........#.....,...#',
      '#..........,.........#',
      '#..........#.........#',
      '######################',
    ],
  },
  baseSurvivors: [],
  interactibles: [{ kind: 'terminal', name: 'Vault terminal', x: 12, y: 2 }],
  floorItems: [
    { type: 'vest', x: 20, y: 5 },
    { type: 'burstPistol', x: 2, y: 12 },
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
    { kind: 'bloater', x: 10, y: 12 },
    { kind: 'drone', x: 7, y: 9 },
    { kind: 'runner', x: 13, y: 8 },
    { kind: 'bloater', x: 18, y: 4 },
    { kind: 'drone', x: 18, y: 4 },
  ],
  spawnColor: 'red',
  stairs: { x: 18, y: 2 },
};
