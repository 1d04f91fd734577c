/**
 * Rules variants: every constant a game tester may change for a run, named by a dotted path
 * (`enemies.drone.hp`, `waveDecks.lab`), checked against the shape and kind of the default value.
 * The normal game never goes through here: DEFAULT_RULES is the catalogue's and the floors' own numbers,
 * and a state carries `rules` only when they differ.
 */
import { ENEMIES, INVENTORY_SIZE, OCULAR_LASERS_XP, SURVIVOR, WEAPON_UPGRADE_XP, WEAPONS } from './catalogue.ts';
import { FLOORS } from './floors/index.ts';
import type { EnemyKind, EnemyRules, FloorDef, GameState, Rules, WeaponRules, WeaponType } from './types.ts';

export const ENEMY_KINDS: readonly EnemyKind[] = ['drone', 'runner', 'bloater'];
const WEAPON_TYPES = Object.keys(WEAPONS) as WeaponType[];

function enemyRules(kind: EnemyKind): EnemyRules {
  const e = ENEMIES[kind];
  return { hp: e.hp, actions: e.actions, move: e.move, xp: e.xp };
}

function weaponRules(type: WeaponType): WeaponRules {
  const w = WEAPONS[type];
  return { ammo: w.ammo, range: w.range, attackCost: w.attackCost, burst: w.burst, pointBlank: w.pointBlank };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The rules of the normal game, read from the catalogue and the built-in floors. */
export const DEFAULT_RULES: Rules = deepFreeze({
  survivor: { ...SURVIVOR, inventorySize: INVENTORY_SIZE },
  enemies: { drone: enemyRules('drone'), runner: enemyRules('runner'), bloater: enemyRules('bloater') },
  weapons: Object.fromEntries(WEAPON_TYPES.map((type) => [type, weaponRules(type)])) as Record<WeaponType, WeaponRules>,
  upgradeXp: WEAPON_UPGRADE_XP,
  augments: { ocularLasers: OCULAR_LASERS_XP },
  waveDecks: Object.fromEntries(FLOORS.map((f) => [f.id, f.waveDeck.map((card) => [...card])])),
});

/** The rules a game is played by. */
export function rulesOf(state: GameState): Rules {
  return state.rules ?? DEFAULT_RULES;
}

/** The floors of a game played by `rules`: each floor's wave deck replaced by the rules' deck for its id. */
export function floorsUnder(rules: Rules, floors: readonly FloorDef[]): FloorDef[] {
  return floors.map((floor) => {
    const deck = rules.waveDecks[floor.id];
    return deck ? { ...floor, waveDeck: deck } : floor;
  });
}

/** The dotted paths of a nested object type whose leaves are numbers or wave decks. */
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends number | null | EnemyKind[][]
    ? `${Prefix}${K}`
    : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** A changeable constant's path, typed from Rules (the list of valid ones at run time: RULE_PATHS). */
export type RulePath = Leaves<Rules>;
export type RuleValue = number | EnemyKind[][];
/** A variant as a tester writes it: path -> new value (what a report and a replay file keep). */
export type RuleOverrides = Record<string, RuleValue>;

type LeafKind = 'count' | 'positive' | 'waveDeck';

/** Numbers that make no game at 0 (a survivor without hp, a weapon that fires no shot). */
const AT_LEAST_ONE = new Set(['hp', 'actions', 'movesPerAction', 'attacksPerAction', 'inventorySize', 'attackCost', 'burst']);
const MAX_NUMBER = 1000;

function leavesOf(value: unknown, prefix: string, out: Map<string, LeafKind>): void {
  if (Array.isArray(value)) {
    out.set(prefix, 'waveDeck');
    return;
  }
  if (typeof value === 'number') {
    out.set(prefix, AT_LEAST_ONE.has(prefix.slice(prefix.lastIndexOf('.') + 1)) ? 'positive' : 'count');
    return;
  }
  // null leaves (the ammo of a weapon that never reloads) cannot be changed.
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) leavesOf(inner, prefix ? `${prefix}.${key}` : key, out);
}

const LEAVES: ReadonlyMap<string, LeafKind> = (() => {
  const out = new Map<string, LeafKind>();
  leavesOf(DEFAULT_RULES, '', out);
  return out;
})();

/** Every path `--set` accepts, in the order of the rules. */
export const RULE_PATHS: readonly RulePath[] = [...LEAVES.keys()] as RulePath[];

export type RuleSetting = { ok: true; path: RulePath; value: RuleValue } | { ok: false; message: string };

function unknownPath(path: string): string {
  return `Unknown rule "${path}". Valid paths:\n${RULE_PATHS.map((p) => `  ${p} (default ${defaultText(p)})`).join('\n')}`;
}

function defaultText(path: string): string {
  const value = valueAt(DEFAULT_RULES, path);
  return Array.isArray(value) ? deckText(value as EnemyKind[][]) : String(value);
}

/** A wave deck written the short way: cards separated by commas, a card's enemies by '+'. */
export function deckText(deck: readonly (readonly EnemyKind[])[]): string {
  return deck.map((card) => card.join('+')).join(',');
}

function valueAt(root: unknown, path: string): unknown {
  let at: unknown = root;
  for (const key of path.split('.')) at = (at as Record<string, unknown> | undefined)?.[key];
  return at;
}

/** Checks one value (from JSON or the command line) for a path; returns the value or why not. */
export function checkRuleValue(path: string, raw: unknown): RuleSetting {
  const kind = LEAVES.get(path);
  if (!kind) return { ok: false, message: unknownPath(path) };
  if (kind === 'waveDeck') {
    let deck = raw;
    if (typeof raw === 'string') {
      try {
        deck = raw.trim().startsWith('[') ? JSON.parse(raw) : raw.split(',').map((card) => card.split('+').map((k) => k.trim()));
      } catch {
        deck = null;
      }
    }
    const kinds = ENEMY_KINDS as readonly unknown[];
    const ok =
      Array.isArray(deck) &&
      deck.length > 0 &&
      deck.every((card) => Array.isArray(card) && card.length > 0 && card.every((k) => kinds.includes(k)));
    if (!ok) {
      return {
        ok: false,
        message: `${path} is a wave deck: cards separated by commas, the enemies of a card by '+' (${ENEMY_KINDS.join(', ')}), e.g. drone+drone,runner,bloater; got "${String(typeof raw === 'string' ? raw : JSON.stringify(raw))}"`,
      };
    }
    return { ok: true, path: path as RulePath, value: (deck as EnemyKind[][]).map((card) => [...card]) };
  }
  const value = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  const min = kind === 'positive' ? 1 : 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_NUMBER) {
    return { ok: false, message: `${path} is a whole number from ${min} to ${MAX_NUMBER}, got "${String(raw)}"` };
  }
  return { ok: true, path: path as RulePath, value };
}

/** Parses `PATH=VALUE` as given to `--set`. */
export function parseRuleSetting(text: string): RuleSetting {
  const eq = text.indexOf('=');
  if (eq <= 0) return { ok: false, message: `--set needs PATH=VALUE, got "${text}"` };
  return checkRuleValue(text.slice(0, eq).trim(), text.slice(eq + 1));
}

export type RulesVerdict = { ok: true; rules: Rules } | { ok: false; message: string };

/** DEFAULT_RULES with the overrides applied (each checked); DEFAULT_RULES itself when nothing changes. */
export function rulesWith(overrides: Readonly<Record<string, unknown>>): RulesVerdict {
  const entries = Object.entries(overrides);
  if (entries.length === 0) return { ok: true, rules: DEFAULT_RULES };
  const rules = structuredClone(DEFAULT_RULES) as Rules;
  for (const [path, raw] of entries) {
    const checked = checkRuleValue(path, raw);
    if (!checked.ok) return checked;
    const keys = path.split('.');
    const last = keys.pop() as string;
    const parent = (keys.length > 0 ? valueAt(rules, keys.join('.')) : rules) as Record<string, unknown>;
    parent[last] = checked.value;
  }
  // Overrides that restate the defaults are the normal game, with its states and hashes.
  if (JSON.stringify(rules) === JSON.stringify(DEFAULT_RULES)) return { ok: true, rules: DEFAULT_RULES };
  return { ok: true, rules: deepFreeze(rules) };
}
