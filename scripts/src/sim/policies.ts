/**
 * Built-in players for the simulator. A policy looks at the state and returns one action that
 * `legalActions(state)` contains. Policies never use Math.random: their randomness comes from their
 * own Rng, seeded from the game seed, so the same game seed always gives the same game.
 */
import { activeSurvivor, findWeapon, legalActions, floorTiles, Rng, rulesOf, seedRng } from '@site/game-engine';
import type { Action, Die, Enemy, GameState, Item, FloorDef, Point, Survivor, Weapon } from '@site/game-engine';

export const POLICY_NAMES = ['random', 'greedy'] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

export interface Policy {
  readonly name: PolicyName;
  /** One legal action for the active survivor. Only called while the game is on. */
  choose(state: GameState): Action;
}

export function isPolicyName(name: string): name is PolicyName {
  return (POLICY_NAMES as readonly string[]).includes(name);
}

/** The policy's PRNG seed for a game: separate from the game's own PRNG, derived from its seed. */
export function policySeed(gameSeed: string): string {
  return `policy:${gameSeed}`;
}

export function createPolicy(name: PolicyName, gameSeed: string): Policy {
  const rng = new Rng(seedRng(policySeed(gameSeed)));
  return name === 'random' ? randomPolicy(rng) : greedyPolicy(rng);
}

function firstLegal(state: GameState): Action[] {
  const legal = legalActions(state);
  if (legal.length === 0) throw new Error('The policy was asked to play a finished game');
  return legal;
}

/**
 * Uniform over `legalActions`, except the free actions that can repeat forever without changing the
 * game: 'cycle' (select the next survivor) and 'drop' (drop and pick the same item back up). Every
 * other action either spends something or can happen only a bounded number of times.
 */
export function randomPolicy(rng: Rng): Policy {
  return {
    name: 'random',
    choose(state) {
      const options = firstLegal(state).filter((a) => a.type !== 'cycle' && a.type !== 'drop');
      return options[rng.int(options.length)] ?? { type: 'pass' };
    },
  };
}

/**
 * A sensible player, in priority order: take the stairs when everybody is on them; upgrade a weapon at
 * the station; install ocular lasers when the XP is not needed for an upgrade; pick up useful items
 * on its tile; open the cryochamber (one more survivor); reload an empty gun; attack the best target
 * in range (enemies on its own tile first, then by expected damage and distance); walk towards its
 * goal (the cryochamber, a weapon or a vest on the floor, the upgrade station, then the stairs); top
 * up a gun while waiting; pass. The Rng only breaks ties between equally good steps.
 */
export function greedyPolicy(rng: Rng): Policy {
  return {
    name: 'greedy',
    choose(state) {
      const legal = firstLegal(state);
      const s = activeSurvivor(state);
      if (!s) return { type: 'pass' };
      return greedyChoice(state, s, legal, rng);
    },
  };
}

function greedyChoice(state: GameState, s: Survivor, legal: Action[], rng: Rng): Action {
  const interactWith = (kind: string): Action | undefined =>
    legal.find((a) => a.type === 'interact' && state.interactibles.find((i) => i.id === a.targetId)?.kind === kind);

  const stairs = interactWith('stairs');
  if (stairs) return stairs;
  const upgrade = interactWith('upgradeStation');
  if (upgrade) return upgrade;

  const augment = legal.find((a) => a.type === 'augment');
  const rules = rulesOf(state);
  if (augment && s.xp - (upgradePending(state, s) ? rules.upgradeXp : 0) >= rules.augments.ocularLasers) return augment;

  const pick = legal.find((a) => a.type === 'pick' && wants(s, state.items.find((it) => it.id === a.itemId)));
  if (pick) return pick;

  const cryo = interactWith('cryochamber');
  if (cryo) return cryo;

  const reloadEmpty = legal.find((a) => a.type === 'reload' && findWeapon(s, a.itemId)?.ammo === 0);
  if (reloadEmpty) return reloadEmpty;

  const attack = bestAttack(state, s, legal);
  if (attack) return attack;

  const step = stepTowardsGoal(state, s, legal, rng);
  if (step) return step;

  const topUp = legal.find((a) => a.type === 'reload');
  if (topUp && !enemyNear(state, s, 1)) return topUp;

  return { type: 'pass' };
}

function isFirearm(item: Item | Weapon): item is Weapon {
  return item.kind === 'weapon' && item.ammoMax !== null;
}

function hasFirearm(s: Survivor): boolean {
  return s.inventory.some(isFirearm);
}

function hasArmor(s: Survivor): boolean {
  return s.inventory.some((it) => it.kind === 'armor');
}

/** Items worth picking up: a first gun, a first vest. */
function wants(s: Survivor, item: Item | undefined): boolean {
  if (!item) return false;
  if (item.kind === 'armor') return !hasArmor(s);
  return isFirearm(item) && !hasFirearm(s);
}

/** The survivor could upgrade a weapon on this floor once it has the XP. */
function upgradePending(state: GameState, s: Survivor): boolean {
  return (
    state.interactibles.some((i) => i.kind === 'upgradeStation') &&
    s.inventory.some((it) => it.kind === 'weapon' && it.upgradable && !it.upgraded)
  );
}

function meanDie(die: Die): number {
  let total = 0;
  let weight = 0;
  die.faces.forEach((face, i) => {
    const w = die.skew?.[i] ?? 1;
    total += face.value * w;
    weight += w;
  });
  return weight > 0 ? total / weight : 0;
}

function chebyshev(a: Point, b: Point): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
}

function enemyNear(state: GameState, s: Survivor, within: number): boolean {
  return state.enemies.some((e) => chebyshev(e, s) <= within);
}

/** Enemies on the survivor's tile first (they will hit it), then expected damage per quick attack,
 * then the closest, then the weakest. */
function bestAttack(state: GameState, s: Survivor, legal: Action[]): Action | undefined {
  let best: Action | undefined;
  let bestScore = -Infinity;
  for (const a of legal) {
    if (a.type !== 'attack') continue;
    const weapon = findWeapon(s, a.weaponId);
    const enemy: Enemy | undefined = state.enemies.find((e) => e.id === a.targetId);
    if (!weapon || !enemy) continue;
    const ownTile = enemy.x === s.x && enemy.y === s.y;
    const shots = weapon.ammo === null ? weapon.burst : Math.min(weapon.burst, weapon.ammo);
    let perShot = ownTile ? weapon.pointBlank : 0;
    for (const die of weapon.damageDice) perShot += meanDie(die);
    const expected = Math.min(shots * perShot, enemy.hp + 1) / weapon.attackCost;
    const score = (ownTile ? 100 : 0) + expected * 10 - chebyshev(enemy, s) - enemy.hp * 0.5;
    if (score > bestScore) {
      bestScore = score;
      best = a;
    }
  }
  return best;
}

/** Where the survivor is heading and how close (Chebyshev) counts as arrived. */
function goalOf(state: GameState, s: Survivor): { point: Point; reach: number } {
  const cryo = state.interactibles.find((i) => i.kind === 'cryochamber');
  if (cryo) return { point: cryo, reach: 1 };
  const item = nearest(s, state.items.filter((it) => wants(s, it)));
  if (item && item.x !== null && item.y !== null) return { point: { x: item.x, y: item.y }, reach: 0 };
  const station = state.interactibles.find((i) => i.kind === 'upgradeStation');
  if (station && s.xp >= rulesOf(state).upgradeXp && upgradePending(state, s)) return { point: station, reach: 1 };
  const floor = state.levels[state.levelIndex];
  const stairs = state.interactibles.find((i) => i.kind === 'stairs') ?? floor?.stairs ?? s;
  return { point: stairs, reach: 0 };
}

function nearest(s: Survivor, items: Item[]): Item | undefined {
  let best: Item | undefined;
  let bestDistance = Infinity;
  for (const it of items) {
    if (it.x === null || it.y === null) continue;
    const d = Math.abs(it.x - s.x) + Math.abs(it.y - s.y);
    if (d < bestDistance) {
      bestDistance = d;
      best = it;
    }
  }
  return best;
}

function stepTowardsGoal(state: GameState, s: Survivor, legal: Action[], rng: Rng): Action | undefined {
  const goal = goalOf(state, s);
  if (chebyshev(goal.point, s) <= goal.reach) return undefined;
  const field = distanceTo(state, goal.point);
  if (!field) return undefined;
  const width = floorTiles(state).width;
  const here = field[s.y * width + s.x] ?? Infinity;
  let best: Action[] = [];
  let bestDistance = here;
  for (const a of legal) {
    if (a.type !== 'move') continue;
    const d = field[a.y * width + a.x] ?? Infinity;
    if (d < bestDistance) {
      bestDistance = d;
      best = [a];
    } else if (d === bestDistance && best.length > 0) {
      best.push(a);
    }
  }
  return best.length > 1 ? best[rng.int(best.length)] : best[0];
}

/** Move-point distance from every tile to a goal tile (steps onto rubble cost 2), cached per floor. */
const fields = new WeakMap<FloorDef, Map<number, Float64Array>>();

function distanceTo(state: GameState, goal: Point): Float64Array | null {
  const floor = state.levels[state.levelIndex];
  if (!floor) return null;
  const { width, height, tiles } = floorTiles(state);
  const key = goal.y * width + goal.x;
  let perFloor = fields.get(floor);
  if (!perFloor) {
    perFloor = new Map();
    fields.set(floor, perFloor);
  }
  const cached = perFloor.get(key);
  if (cached) return cached;
  // Dijkstra with costs 1 or 2 (a handful of hundred tiles): a simple label-correcting queue is enough.
  const dist = new Float64Array(width * height).fill(Infinity);
  dist[key] = 0;
  const queue = [key];
  for (let head = 0; head < queue.length; head++) {
    const i = queue[head] ?? 0;
    const x = i % width;
    const y = (i - x) / width;
    const here = tiles[i];
    // Walking from neighbour n onto tile i costs the price of entering i.
    const enter = here ? Math.max(1, here.moveCost) : 1;
    const base = (dist[i] ?? Infinity) + enter;
    const neighbours = [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, y > 0 ? i - width : -1, y < height - 1 ? i + width : -1];
    for (const n of neighbours) {
      if (n < 0 || (tiles[n]?.moveCost ?? -1) < 0) continue;
      if (base < (dist[n] ?? Infinity)) {
        dist[n] = base;
        queue.push(n);
      }
    }
  }
  perFloor.set(key, dist);
  return dist;
}
