import type { TileKind } from '../types.ts';

/** Shared tile legend: one character per tile kind. */
export const LEGEND: Record<string, TileKind> = {
  '#': { color: 'gray', overlay: 'wall', moveCost: -1, los: false },
  '.': { color: 'white', overlay: null, moveCost: 1, los: true },
  ',': { color: 'brown', overlay: 'rubble', moveCost: 2, los: true },
  '=': { color: 'cyan', overlay: 'glass', moveCost: -1, los: true },
  v: { color: 'red', overlay: 'vent', moveCost: 1, los: true },
  '>': { color: 'gold', overlay: 'stairs', moveCost: 1, los: true },
  '<': { color: 'gold', overlay: 'entrance', moveCost: 1, los: true },
};
