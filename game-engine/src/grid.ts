import type { GameState, FloorDef, Point, Survivor, Tile } from './types.ts';

/** Precomputed, read-only view of a floor's tiles. Cached per floor object, never stored in state. */
export interface Grid {
  width: number;
  height: number;
  tiles: Tile[];
  /** moveCost per cell (row-major), negative = impassable. */
  moveCost: Int16Array;
  /** 1 when line of sight passes through the cell. */
  los: Uint8Array;
  spawnCells: number[];
}

const cache = new WeakMap<FloorDef, Grid>();

export function gridOf(floor: FloorDef): Grid {
  const cached = cache.get(floor);
  if (cached) return cached;
  const rows = floor.tileSet.rows;
  const height = rows.length;
  const width = rows.reduce((w, row) => Math.max(w, row.length), 0);
  const tiles: Tile[] = [];
  const moveCost = new Int16Array(width * height);
  const los = new Uint8Array(width * height);
  const spawnCells: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const ch = rows[y]?.[x] ?? ' ';
      const kind = floor.tileSet.legend[ch] ?? { color: 'black', overlay: null, moveCost: -1, los: false };
      const tile: Tile = { x, y, color: kind.color, overlay: kind.overlay, moveCost: kind.moveCost, los: kind.los };
      tiles.push(tile);
      const i = y * width + x;
      moveCost[i] = kind.moveCost;
      los[i] = kind.los ? 1 : 0;
      if (kind.color === floor.spawnColor && kind.moveCost >= 0) spawnCells.push(i);
    }
  }
  const grid: Grid = { width, height, tiles, moveCost, los, spawnCells };
  cache.set(floor, grid);
  return grid;
}

export function floorOf(state: GameState): FloorDef {
  const floor = state.levels[state.levelIndex];
  if (!floor) throw new Error(`Missing floor ${state.levelIndex}`);
  return floor;
}

export function gridOfState(state: GameState): Grid {
  return gridOf(floorOf(state));
}

export function inBounds(grid: Grid, x: number, y: number): boolean {
  return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < grid.width && y < grid.height;
}

export function isPassable(grid: Grid, x: number, y: number): boolean {
  return inBounds(grid, x, y) && (grid.moveCost[y * grid.width + x] ?? -1) >= 0;
}

/** Move points a survivor pays to step onto (x, y). */
export function stepCost(grid: Grid, x: number, y: number): number {
  return Math.max(1, grid.moveCost[y * grid.width + x] ?? 1);
}

/** Chebyshev distance: range is counted in king moves. */
export function distance(ax: number, ay: number, bx: number, by: number): number {
  return Math.max(Math.abs(ax - bx), Math.abs(ay - by));
}

/** Line of sight: every cell strictly between the two (Bresenham line) must let sight through. */
export function hasLineOfSight(grid: Grid, x0: number, y0: number, x1: number, y1: number): boolean {
  const dx = Math.abs(x1 - x0);
  const dy = -Math.abs(y1 - y0);
  const sx = x0 < x1 ? 1 : -1;
  const sy = y0 < y1 ? 1 : -1;
  let err = dx + dy;
  let x = x0;
  let y = y0;
  for (;;) {
    if (x === x1 && y === y1) return true;
    const e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y += sy;
    }
    if (x === x1 && y === y1) return true;
    if (grid.los[y * grid.width + x] !== 1) return false;
  }
}

export const DIRECTIONS: readonly Point[] = [
  { x: 0, y: -1 },
  { x: 1, y: 0 },
  { x: 0, y: 1 },
  { x: -1, y: 0 },
];

const UNREACHABLE = 0x7fff;
/** BFS queue reused between calls (the engine is synchronous, so one buffer is enough). */
let scratchQueue = new Int32Array(0);

/** Multi-source BFS distance (4-neighbour steps over passable cells) from every living survivor. */
export function distanceField(grid: Grid, survivors: readonly Survivor[]): Int16Array {
  const size = grid.width * grid.height;
  const dist = new Int16Array(size).fill(UNREACHABLE);
  if (scratchQueue.length < size) scratchQueue = new Int32Array(size);
  const queue = scratchQueue;
  let head = 0;
  let tail = 0;
  for (const s of survivors) {
    const i = s.y * grid.width + s.x;
    if (dist[i] !== 0) {
      dist[i] = 0;
      queue[tail++] = i;
    }
  }
  const w = grid.width;
  const h = grid.height;
  while (head < tail) {
    const i = queue[head++] ?? 0;
    const d = (dist[i] ?? 0) + 1;
    const x = i % w;
    const y = (i - x) / w;
    for (let k = 0; k < 4; k++) {
      let j: number;
      if (k === 0) {
        if (x === 0) continue;
        j = i - 1;
      } else if (k === 1) {
        if (x === w - 1) continue;
        j = i + 1;
      } else if (k === 2) {
        if (y === 0) continue;
        j = i - w;
      } else {
        if (y === h - 1) continue;
        j = i + w;
      }
      if ((grid.moveCost[j] ?? -1) >= 0 && (dist[j] ?? 0) > d) {
        dist[j] = d;
        queue[tail++] = j;
      }
    }
  }
  return dist;
}

export { UNREACHABLE };
