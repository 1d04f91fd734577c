import type { RngState } from './rng.ts';

/** Whose turn it is. The enemy phase runs inside `apply`, so a stored state is normally 'Survivors'. */
export type Phase = 'Survivors' | 'Enemies';
export type GameStatus = 'playing' | 'won' | 'lost';

/** One face of a die: its value and the picture the UI shows for it. */
export interface DieFace {
  value: number;
  image: string;
}

/** A die: faces plus optional skew (relative probability weights, one per face; null = fair). */
export interface Die {
  name: string;
  faces: DieFace[];
  skew: number[] | null;
}

/** A weapon card. ammo/ammoMax are null for weapons that never need reloading (punch, lasers). */
export interface Weapon {
  id: string;
  kind: 'weapon';
  /** Catalogue key: 'revolver' | 'burstPistol' | 'punch' | 'ocularLasers'. */
  type: string;
  name: string;
  description: string;
  damageDice: Die[];
  ammo: number | null;
  ammoMax: number | null;
  /** Cost in quick attacks (attacksPerAction quick attacks = one action). */
  attackCost: number;
  /** Chebyshev distance in tiles; 0 = own tile only. */
  range: number;
  /** Bonus damage per shot against a target on the attacker's own tile. */
  pointBlank: number;
  /** Shots per attack; each shot uses one ammo and rolls the damage dice. */
  burst: number;
  upgradable: boolean;
  upgraded: boolean;
  /** Position once dropped on the floor, null while carried. */
  x: number | null;
  y: number | null;
}

/** Armour reduces the damage of every enemy attack on its wearer by `armor` (never below 0). */
export interface Armor {
  id: string;
  kind: 'armor';
  type: string;
  name: string;
  description: string;
  armor: number;
  x: number | null;
  y: number | null;
}

export type Item = Weapon | Armor;

/** An augment bought with XP. */
export interface Augment {
  id: string;
  name: string;
  description: string;
  cost: number;
  installed: boolean;
}

export interface Survivor {
  id: string;
  name: string;
  x: number;
  y: number;
  hp: number;
  hpMax: number;
  actions: number;
  actionsMax: number;
  /** Move points left over from a converted action. */
  moveActions: number;
  movesPerAction: number;
  /** Quick attacks left over from a converted action. */
  attackActions: number;
  attacksPerAction: number;
  xp: number;
  /** Carried weapons and armour (at most INVENTORY_SIZE). */
  inventory: Item[];
  /** Attacks that need no item (punch, ocular lasers once installed); cannot be dropped. */
  unarmed: Weapon[];
  augments: Augment[];
}

export type EnemyKind = 'drone' | 'runner' | 'bloater';

export interface Enemy {
  id: string;
  kind: EnemyKind;
  name: string;
  x: number;
  y: number;
  prevX: number;
  prevY: number;
  hp: number;
  hpMax: number;
  actions: number;
  actionsMax: number;
  /** Tiles moved per action. */
  move: number;
  attackDice: Die[];
  /** A face of value 1 means the shot is dodged. */
  dodgeDie: Die;
  /** XP awarded to the survivor who kills it. */
  xp: number;
}

export type InteractibleKind = 'stairs' | 'entrance' | 'upgradeStation' | 'cryochamber' | 'brokenCryochamber' | 'terminal';

export interface Interactible {
  id: string;
  kind: InteractibleKind;
  name: string;
  x: number;
  y: number;
}

/** A tile of the map (derived from a floor's tileSet). */
export interface Tile {
  x: number;
  y: number;
  color: string;
  overlay: string | null;
  /** Negative = impassable. A survivor step costs max(1, moveCost) move points. */
  moveCost: number;
  /** true = line of sight passes through this tile. */
  los: boolean;
}

export type TileKind = Omit<Tile, 'x' | 'y'>;

export interface Point {
  x: number;
  y: number;
}

export interface SurvivorTemplate {
  name: string;
  /** Catalogue keys of the starting items, e.g. ['revolver']. */
  items: string[];
}

/** A floor of the tower. Kept in the state by reference and never mutated. */
export interface FloorDef {
  id: string;
  name: string;
  /** One string per row; each character is a key of `legend`. */
  tileSet: { legend: Record<string, TileKind>; rows: string[] };
  /** Survivors created when the game starts on this floor (only the first floor's are used). */
  baseSurvivors: SurvivorTemplate[];
  interactibles: { kind: InteractibleKind; name: string; x: number; y: number }[];
  /** Catalogue keys of items lying on the floor at the start of the floor. */
  floorItems: { type: string; x: number; y: number }[];
  /** Cards of the wave deck; one card (a group of monsters) spawns per enemy phase. */
  waveDeck: EnemyKind[][];
  startXY: Point;
  startingEnemies: { kind: EnemyKind; x: number; y: number }[];
  /** Enemies spawn on passable tiles of this colour. */
  spawnColor: string;
  stairs: Point;
}

/** The catalogue keys of the weapons. */
export type WeaponType = 'revolver' | 'burstPistol' | 'punch' | 'ocularLasers';

/** An enemy kind's numbers that a rules variant may change (dice stay the catalogue's). */
export interface EnemyRules {
  hp: number;
  actions: number;
  move: number;
  xp: number;
}

/** A weapon's numbers that a rules variant may change (ammo null: never reloads, not changeable). */
export interface WeaponRules {
  ammo: number | null;
  range: number;
  attackCost: number;
  burst: number;
  pointBlank: number;
}

/**
 * Every constant of the rules a game tester may change for a run (`npm run sim -- --set PATH=VALUE`).
 * DEFAULT_RULES holds the catalogue's and the floors' own values; a game keeps other rules in `state.rules`.
 */
export interface Rules {
  survivor: { hp: number; actions: number; movesPerAction: number; attacksPerAction: number; inventorySize: number };
  enemies: Record<EnemyKind, EnemyRules>;
  weapons: Record<WeaponType, WeaponRules>;
  /** XP price of a weapon upgrade at the upgrade station. */
  upgradeXp: number;
  /** XP price of each augment. */
  augments: { ocularLasers: number };
  /** Each floor's wave deck, by floor id. */
  waveDecks: Record<string, EnemyKind[][]>;
}

/** The whole game. Plain JSON: JSON.parse(JSON.stringify(state)) is an equal state. */
export interface GameState {
  version: 1;
  seed: string;
  rng: RngState;
  status: GameStatus;
  phase: Phase;
  /** Starts at 1, +1 after every enemy phase. */
  round: number;
  /**
   * The floor being played and all floors of this game (shared floor data, never mutated). The field
   * names `levelIndex` and `levels` are kept: they are part of saved games, replay files and state hashes.
   */
  levelIndex: number;
  levels: FloorDef[];
  survivors: Survivor[];
  enemies: Enemy[];
  interactibles: Interactible[];
  /** Items lying on the current floor (each with x and y). */
  items: Item[];
  /** Indices into the current floor's waveDeck still to be drawn. Refilled when empty. */
  deck: number[];
  activeSurvivorId: string | null;
  /** Counter for stable actor ids ('s1', 'e7', 'i3', 'x2'). */
  nextId: number;
  /**
   * Present only in a game played with a rules variant (never in a normal game, so normal states, hashes
   * and replay files are unchanged); shared between states and never mutated.
   */
  rules?: Rules;
}

interface ActionBase {
  /** Optional: when present it must be the active survivor's id. */
  survivorId?: string;
}

/** Move one tile (4-neighbour) to (x, y). */
export interface MoveAction extends ActionBase { type: 'move'; x: number; y: number }
/** Attack with a weapon (item id, or an unarmed weapon id) the square (x, y) and an enemy on it. */
export interface AttackAction extends ActionBase { type: 'attack'; weaponId: string; x: number; y: number; targetId?: string }
/** Refill a carried weapon's ammo; costs one quick attack. */
export interface ReloadAction extends ActionBase { type: 'reload'; itemId: string }
/** Put a carried item on the survivor's tile. Free. */
export interface DropAction extends ActionBase { type: 'drop'; itemId: string }
/** Pick up an item lying on the survivor's tile. Free. */
export interface PickAction extends ActionBase { type: 'pick'; itemId: string }
/** List what is on a visible tile. Free; the state is unchanged. */
export interface LookAction extends ActionBase { type: 'look'; x: number; y: number }
/** Use an interactible on or next to the survivor. `name` names the survivor from a cryochamber;
 * `weaponId` chooses the weapon at the upgrade station. */
export interface InteractAction extends ActionBase { type: 'interact'; targetId: string; name?: string; weaponId?: string }
/** Install an augment for XP. Costs no action. */
export interface AugmentAction extends ActionBase { type: 'augment'; augmentId: string }
/** Forfeit the active survivor's remaining actions. */
export interface PassAction extends ActionBase { type: 'pass' }
/** Make another survivor (with actions left) the active one. Free. */
export interface SelectAction { type: 'select'; survivorId: string }
/** Select the next (1) or previous (-1) survivor with actions left. Free. */
export interface CycleAction { type: 'cycle'; direction: 1 | -1 }

export type Action =
  | MoveAction
  | AttackAction
  | ReloadAction
  | DropAction
  | PickAction
  | LookAction
  | InteractAction
  | AugmentAction
  | PassAction
  | SelectAction
  | CycleAction;

export type ActionType = Action['type'];

/** Something on a tile, as the Look and Interact lists show it. hp/hpMax are null for objects. */
export interface Thing {
  id: string;
  kind: 'survivor' | 'enemy' | 'interactible' | 'item';
  name: string;
  x: number;
  y: number;
  hp: number | null;
  hpMax: number | null;
}

/** What happened, in order, for the UI to animate (75 ms per 'stepped' of an enemy, 300 ms per
 * enemy 'attacked', 'spawned' events spread over ~2000 ms). */
export type GameEvent =
  | { type: 'phase'; phase: Phase; round: number }
  | { type: 'selected'; survivorId: string }
  | { type: 'stepped'; actorId: string; fromX: number; fromY: number; x: number; y: number }
  | { type: 'spawned'; enemyId: string; kind: EnemyKind; x: number; y: number }
  | {
      type: 'attacked';
      attackerId: string;
      targetId: string;
      /** Weapon id for survivors, null for enemies. */
      weaponId: string | null;
      fromX: number;
      fromY: number;
      x: number;
      y: number;
      /** The face value rolled on each damage die. */
      rolls: number[];
      damage: number;
    }
  | { type: 'dodged'; actorId: string; attackerId: string; x: number; y: number }
  | { type: 'damaged'; actorId: string; amount: number; hp: number; x: number; y: number }
  | { type: 'died'; actorId: string; x: number; y: number }
  | { type: 'xp'; survivorId: string; amount: number; xp: number }
  | { type: 'picked'; survivorId: string; itemId: string; x: number; y: number }
  | { type: 'dropped'; survivorId: string; itemId: string; x: number; y: number }
  | { type: 'reloaded'; survivorId: string; itemId: string; ammo: number }
  | { type: 'passed'; survivorId: string }
  | { type: 'looked'; x: number; y: number; things: Thing[] }
  | { type: 'opened'; interactibleId: string; survivorId: string }
  | { type: 'joined'; survivorId: string; name: string; x: number; y: number }
  | { type: 'upgraded'; survivorId: string; itemId: string }
  | { type: 'augmented'; survivorId: string; augmentId: string }
  | { type: 'levelled'; levelIndex: number; levelId: string; name: string }
  | { type: 'won'; round: number }
  | { type: 'lost'; round: number };

export type RejectionCode =
  | 'malformed_action'
  | 'game_over'
  | 'wrong_phase'
  | 'no_active_survivor'
  | 'not_active_survivor'
  | 'unknown_survivor'
  | 'no_actions_left'
  | 'not_enough_actions'
  | 'not_adjacent'
  | 'impassable'
  | 'unknown_weapon'
  | 'out_of_ammo'
  | 'out_of_range'
  | 'no_valid_targets'
  | 'unknown_item'
  | 'not_reloadable'
  | 'ammo_full'
  | 'inventory_full'
  | 'nothing_to_look_at'
  | 'nothing_to_do'
  | 'too_far'
  | 'cryochamber_needs_action'
  | 'no_going_back'
  | 'no_upgradable_weapon'
  | 'not_enough_xp'
  | 'not_all_on_stairs'
  | 'unknown_augment'
  | 'already_installed';

export interface Rejection {
  ok: false;
  code: RejectionCode;
  message: string;
}

export interface Success {
  ok: true;
  state: GameState;
  events: GameEvent[];
}

export type ApplyResult = Success | Rejection;
