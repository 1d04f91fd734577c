import type { FloorDef } from '../types.ts';
import { LEGEND } from './legend.ts';

/**
 * Floor 1: the lab. Two survivors start top-left next to a cryochamber; three drones wait just
 * inside the south-east room; the upgrade station is on the way to the stairs in the south-east corner.
 */
export const floor1: FloorDef = {
  id: 'lab',
  name: 'Floor 1 - The lab',
  tileSet: {
    legend: LEGEND,
    rows: [
      '################',
      '#......#.......#',
      '#......#...v...#',
      '#......=.......#',
      '#..............#',
      '####.#####.#####',
      '#......#.......#',
      '#.,,...#.......#',
      '#v.............#',
      '#......#.....>.#',
      '################',
    ],
  },
  baseSurvivors: [
    { name: 'Ada', items: ['revolver'] },
    { name: 'Bram', items: ['burstPistol'] },
  ],
  interactibles: [
    { kind: 'cryochamber', name: 'Cryochamber', x: 2, y: 4 },
    { kind: 'upgradeStation', name: 'Upgrade station', x: 11, y: 7 },
    { kind: 'terminal', name: 'Dead terminal', x: 6, y: 1 },
  ],
  floorItems: [{ type: 'revolver', x: 5, y: 4 }],
  waveDeck: [
    ['drone', 'drone'],
    ['drone', 'drone'],
    ['drone', 'runner'],
    ['drone'],
    ['runner', 'runner'],
    ['runner'],
    ['bloater'],
    ['bloater'],
  ],
  startXY: { x: 2, y: 2 },
  startingEnemies: [
    { kind: 'drone', x: 10, y: 7 },
    { kind: 'drone', x: 10, y: 7 },
    { kind: 'drone', x: 10, y: 7 },
  ],
  spawnColor: 'red',
  stairs: { x: 13, y: 9 },
};
