import { expect } from 'vitest';
import { createGame, FLOORS } from '../src/index.ts';
import type { ApplyResult, Die, Enemy, EnemyKind, GameState, FloorDef, Rejection, Success, Survivor } from '../src/index.ts';
import { makeEnemy } from '../src/catalogue.ts';
import { LEGEND } from '../src/floors/legend.ts';

/** A small test floor: vent (spawn) top-left, a glass pane, rubble, stairs bottom-right. */
export const arena: FloorDef = {
  id: 'arena',
  name: 'Arena',
  tileSet: {
    legend: LEGEND,
    rows: [
      '#########',
      '#v......#',
      '#.......#',
      '#...#...#',
      '#.,.=...#',
      '#......>#',
      '#########',
    ],
  },
  baseSurvivors: [
    { name: 'Ada', items: ['revolver'] },
    { name: 'Bram', items: ['burstPistol'] },
  ],
  interactibles: [
    { kind: 'cryochamber', name: 'Cryochamber', x: 3, y: 2 },
    { kind: 'upgradeStation', name: 'Upgrade station', x: 1, y: 2 },
    { kind: 'terminal', name: 'Terminal', x: 2, y: 1 },
  ],
  floorItems: [{ type: 'vest', x: 2, y: 2 }],
  waveDeck: [['drone']],
  startXY: { x: 2, y: 2 },
  startingEnemies: [],
  spawnColor: 'red',
  stairs: { x: 7, y: 5 },
};

/** Second test floor, no spawns. */
export const arena2: FloorDef = {
  ...arena,
  id: 'arena2',
  name: 'Arena 2',
  baseSurvivors: [],
  interactibles: [],
  floorItems: [],
  waveDeck: [],
  startXY: { x: 1, y: 1 },
  startingEnemies: [{ kind: 'bloater', x: 6, y: 1 }],
};

export function arenaGame(floors: FloorDef[] = [arena, arena2]): GameState {
  return createGame({ seed: 'test', floors });
}

export function realGame(seed: number | string = 1): GameState {
  return createGame({ seed, floors: FLOORS });
}

export function expectOk(result: ApplyResult): Success {
  if (!result.ok) throw new Error(`rejected: ${result.code} ${result.message}`);
  return result;
}

export function expectRejected(result: ApplyResult, code: Rejection['code'], message?: string): Rejection {
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error('accepted');
  expect(result.code).toBe(code);
  if (message !== undefined) expect(result.message).toBe(message);
  return result;
}

export function survivor(state: GameState, index = 0): Survivor {
  const s = state.survivors[index];
  if (!s) throw new Error(`no survivor ${index}`);
  return s;
}

export function patchSurvivor(state: GameState, index: number, patch: Partial<Survivor>): GameState {
  return { ...state, survivors: state.survivors.map((s, i) => (i === index ? { ...s, ...patch } : s)) };
}

/** A die that always shows `value`: forces the roll whatever the PRNG does. */
export function fixedDie(value: number): Die {
  return { name: 'fixed', faces: [{ value, image: `fixed-${value}` }], skew: null };
}

export function addEnemy(state: GameState, kind: EnemyKind, x: number, y: number, patch: Partial<Enemy> = {}): GameState {
  const enemy = { ...makeEnemy(kind, `e${state.nextId}`, x, y), ...patch };
  return { ...state, enemies: [...state.enemies, enemy], nextId: state.nextId + 1 };
}

/** Everyone but the active survivor has passed, so the next pass/spend starts the enemy phase. */
export function othersPassed(state: GameState): GameState {
  return {
    ...state,
    survivors: state.survivors.map((s) => (s.id === state.activeSurvivorId ? s : { ...s, actions: 0, moveActions: 0, attackActions: 0 })),
  };
}
