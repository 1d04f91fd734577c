import { rulesOf } from './rules.ts';
import { distance, gridOfState, hasLineOfSight, inBounds, isPassable, stepCost, DIRECTIONS } from './grid.ts';
import type { Action, Enemy, GameState, Interactible, Point, Survivor, Thing, Tile, Weapon } from './types.ts';
import { activeSurvivorOf, canSpendAttacks, canSpendMoves, hasActionsLeft } from './turn.ts';

/** The survivor whose turn it is, or null when the game is over. */
export function activeSurvivor(state: GameState): Survivor | null {
  return activeSurvivorOf(state);
}

/** Every tile of the current floor, row-major (tiles[y * width + x]). Shared, do not mutate. */
export function floorTiles(state: GameState): { width: number; height: number; tiles: readonly Tile[] } {
  const grid = gridOfState(state);
  return { width: grid.width, height: grid.height, tiles: grid.tiles };
}

/** The tile at (x, y), or null outside the map. */
export function tileAt(state: GameState, x: number, y: number): Tile | null {
  const grid = gridOfState(state);
  return inBounds(grid, x, y) ? (grid.tiles[y * grid.width + x] ?? null) : null;
}

/** Weapons a survivor can attack with: carried weapons first, then unarmed attacks (punch, lasers). */
export function weaponsOf(survivor: Survivor): Weapon[] {
  const weapons: Weapon[] = [];
  for (const item of survivor.inventory) if (item.kind === 'weapon') weapons.push(item);
  for (const w of survivor.unarmed) weapons.push(w);
  return weapons;
}

export function findWeapon(survivor: Survivor, weaponId: string): Weapon | null {
  for (const item of survivor.inventory) if (item.id === weaponId && item.kind === 'weapon') return item;
  for (const w of survivor.unarmed) if (w.id === weaponId) return w;
  return null;
}

function survivorThing(s: Survivor): Thing {
  return { id: s.id, kind: 'survivor', name: s.name, x: s.x, y: s.y, hp: s.hp, hpMax: s.hpMax };
}
function enemyThing(e: Enemy): Thing {
  return { id: e.id, kind: 'enemy', name: e.name, x: e.x, y: e.y, hp: e.hp, hpMax: e.hpMax };
}
function interactibleThing(i: Interactible): Thing {
  return { id: i.id, kind: 'interactible', name: i.name, x: i.x, y: i.y, hp: null, hpMax: null };
}

/** Everything on a tile (survivors, enemies, interactibles, floor items) for the Look list. */
export function thingsAt(state: GameState, x: number, y: number): Thing[] {
  const things: Thing[] = [];
  for (const s of state.survivors) if (s.x === x && s.y === y) things.push(survivorThing(s));
  for (const e of state.enemies) if (e.x === x && e.y === y) things.push(enemyThing(e));
  for (const i of state.interactibles) if (i.x === x && i.y === y) things.push(interactibleThing(i));
  for (const it of state.items) {
    if (it.x === x && it.y === y) things.push({ id: it.id, kind: 'item', name: it.name, x, y, hp: null, hpMax: null });
  }
  return things;
}

/** Whether the survivor can see (x, y). */
export function canSee(state: GameState, survivor: Survivor, x: number, y: number): boolean {
  const grid = gridOfState(state);
  return inBounds(grid, x, y) && hasLineOfSight(grid, survivor.x, survivor.y, x, y);
}

/** Tiles the survivor (default: the active one) can see, its own tile included. */
export function visibleTiles(state: GameState, survivorId?: string): Tile[] {
  const survivor = survivorId ? state.survivors.find((s) => s.id === survivorId) : activeSurvivorOf(state);
  if (!survivor) return [];
  const grid = gridOfState(state);
  return grid.tiles.filter((t) => hasLineOfSight(grid, survivor.x, survivor.y, t.x, t.y));
}

/** Adjacent passable tiles around the active survivor with their move cost and whether it is affordable. */
export function moveOptions(state: GameState): { x: number; y: number; cost: number; affordable: boolean }[] {
  const s = activeSurvivorOf(state);
  if (!s || state.status !== 'playing') return [];
  const grid = gridOfState(state);
  const options: { x: number; y: number; cost: number; affordable: boolean }[] = [];
  for (const dir of DIRECTIONS) {
    const x = s.x + dir.x;
    const y = s.y + dir.y;
    if (!isPassable(grid, x, y)) continue;
    const cost = stepCost(grid, x, y);
    options.push({ x, y, cost, affordable: canSpendMoves(s, cost) });
  }
  return options;
}

/** Tiles the active survivor can move to right now. */
export function moveTargets(state: GameState): Point[] {
  return moveOptions(state)
    .filter((o) => o.affordable)
    .map((o) => ({ x: o.x, y: o.y }));
}

/** Passable squares within the weapon's range and in line of sight of the active survivor. */
export function targetSquares(state: GameState, weaponId: string): Point[] {
  const s = activeSurvivorOf(state);
  const weapon = s ? findWeapon(s, weaponId) : null;
  if (!s || !weapon) return [];
  const grid = gridOfState(state);
  const squares: Point[] = [];
  for (let y = s.y - weapon.range; y <= s.y + weapon.range; y++) {
    for (let x = s.x - weapon.range; x <= s.x + weapon.range; x++) {
      if (isPassable(grid, x, y) && hasLineOfSight(grid, s.x, s.y, x, y)) squares.push({ x, y });
    }
  }
  return squares;
}

/** Whether (x, y) is within range and sight of the survivor for that weapon. */
export function inWeaponReach(state: GameState, s: Survivor, weapon: Weapon, x: number, y: number): boolean {
  const grid = gridOfState(state);
  return inBounds(grid, x, y) && distance(s.x, s.y, x, y) <= weapon.range && hasLineOfSight(grid, s.x, s.y, x, y);
}

/** Enemies the active survivor can attack with that weapon on (x, y); empty means
 * 'There are no valid targets in this square'. */
export function targetsAt(state: GameState, weaponId: string, x: number, y: number): Thing[] {
  const s = activeSurvivorOf(state);
  const weapon = s ? findWeapon(s, weaponId) : null;
  if (!s || !weapon || !inWeaponReach(state, s, weapon, x, y)) return [];
  return state.enemies.filter((e) => e.x === x && e.y === y).map(enemyThing);
}

/** Interactibles on or next to the survivor (default: the active one), for the Interact list. */
export function interactTargets(state: GameState, survivorId?: string): Thing[] {
  const s = survivorId ? state.survivors.find((v) => v.id === survivorId) : activeSurvivorOf(state);
  if (!s) return [];
  return state.interactibles.filter((i) => distance(i.x, i.y, s.x, s.y) <= 1).map(interactibleThing);
}

/**
 * Every action the active survivor can take that `apply` accepts and that changes the state
 * (look is left out: it never changes anything). Always contains 'pass' while the game is on.
 */
export function legalActions(state: GameState): Action[] {
  const s = activeSurvivorOf(state);
  if (!s || state.status !== 'playing' || state.phase !== 'Survivors') return [];
  const actions: Action[] = [];
  for (const m of moveTargets(state)) actions.push({ type: 'move', x: m.x, y: m.y });
  for (const weapon of weaponsOf(s)) {
    if (weapon.ammo !== null && weapon.ammo <= 0) continue;
    if (!canSpendAttacks(s, weapon.attackCost)) continue;
    for (const e of state.enemies) {
      if (inWeaponReach(state, s, weapon, e.x, e.y)) {
        actions.push({ type: 'attack', weaponId: weapon.id, x: e.x, y: e.y, targetId: e.id });
      }
    }
  }
  for (const item of s.inventory) {
    if (item.kind === 'weapon' && item.ammo !== null && item.ammoMax !== null && item.ammo < item.ammoMax) {
      if (canSpendAttacks(s, 1)) actions.push({ type: 'reload', itemId: item.id });
    }
    actions.push({ type: 'drop', itemId: item.id });
  }
  if (s.inventory.length < rulesOf(state).survivor.inventorySize) {
    for (const item of state.items) if (item.x === s.x && item.y === s.y) actions.push({ type: 'pick', itemId: item.id });
  }
  for (const i of state.interactibles) {
    if (distance(i.x, i.y, s.x, s.y) > 1 || s.actions < 1) continue;
    if (i.kind === 'cryochamber') actions.push({ type: 'interact', targetId: i.id, name: 'Sleeper' });
    if (i.kind === 'upgradeStation' && s.xp >= rulesOf(state).upgradeXp && s.inventory.some((it) => it.kind === 'weapon' && it.upgradable && !it.upgraded)) {
      actions.push({ type: 'interact', targetId: i.id });
    }
    if (i.kind === 'stairs' && i.x === s.x && i.y === s.y && state.survivors.every((v) => v.hp <= 0 || (v.x === i.x && v.y === i.y))) {
      actions.push({ type: 'interact', targetId: i.id });
    }
  }
  for (const a of s.augments) if (!a.installed && s.xp >= a.cost) actions.push({ type: 'augment', augmentId: a.id });
  if (state.survivors.some((v) => v.id !== s.id && hasActionsLeft(v))) {
    actions.push({ type: 'cycle', direction: 1 });
  }
  actions.push({ type: 'pass' });
  return actions;
}
