import { baseAugments, makeItem, makeWeapon, SURVIVOR } from './catalogue.ts';
import { Draft } from './draft.ts';
import { loadFloor } from './floor-loader.ts';
import { FLOORS } from './floors/index.ts';
import { seedRng } from './rng.ts';
import { DEFAULT_RULES, floorsUnder } from './rules.ts';
import type { GameState, FloorDef, Rules, Survivor } from './types.ts';

export interface GameOptions {
  /** Any number or string; the same seed and actions always give the same game. */
  seed: number | string;
  /** The tower, bottom floor first. Defaults to the built-in FLOORS. */
  floors?: readonly FloorDef[];
  /** Replaces the names of the first floor's base survivors, in order. */
  survivorNames?: readonly string[];
  /**
   * A rules variant (see rulesWith); kept in the state so every later floor, wave and survivor follows it.
   * Leave it out (or pass DEFAULT_RULES) for the normal game: its states carry no `rules` field.
   */
  rules?: Rules;
}

/** A new survivor with the spec's constants (5 hp, 3 actions, 2 moves and 2 quick attacks per action). */
export function makeSurvivor(d: Draft, name: string, itemTypes: readonly string[], x: number, y: number): Survivor {
  const rules = d.state.rules;
  const numbers = rules?.survivor ?? SURVIVOR;
  return {
    id: d.newId('s'),
    name,
    x,
    y,
    hp: numbers.hp,
    hpMax: numbers.hp,
    actions: numbers.actions,
    actionsMax: numbers.actions,
    moveActions: 0,
    movesPerAction: numbers.movesPerAction,
    attackActions: 0,
    attacksPerAction: numbers.attacksPerAction,
    xp: 0,
    inventory: itemTypes.map((type) => makeItem(type, d.newId('i'), null, null, rules)),
    unarmed: [makeWeapon('punch', d.newId('i'), rules)],
    augments: baseAugments(rules),
  };
}

/** Starts a game on the first floor, survivor phase of round 1, first survivor selected. */
export function createGame(options: GameOptions): GameState {
  const variant = options.rules !== undefined && options.rules !== DEFAULT_RULES ? options.rules : undefined;
  const floors = variant ? floorsUnder(variant, options.floors ?? FLOORS) : (options.floors ?? FLOORS);
  const first = floors[0];
  if (!first) throw new Error('A game needs at least one floor');
  const seed = String(options.seed);
  const base: GameState = {
    version: 1,
    seed,
    rng: seedRng(seed),
    status: 'playing',
    phase: 'Survivors',
    round: 1,
    levelIndex: 0,
    levels: [...floors],
    survivors: [],
    enemies: [],
    interactibles: [],
    items: [],
    deck: [],
    activeSurvivorId: null,
    nextId: 1,
    ...(variant ? { rules: variant } : {}),
  };
  const d = new Draft(base);
  const survivors = first.baseSurvivors.map((t, i) =>
    makeSurvivor(d, options.survivorNames?.[i] ?? t.name, t.items, first.startXY.x, first.startXY.y),
  );
  loadFloor(d, 0, survivors);
  d.state.activeSurvivorId = d.state.survivors[0]?.id ?? null;
  return d.finish();
}
