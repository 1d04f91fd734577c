import { parseIngredient } from 'parse-ingredient';
import pluralize from 'pluralize';
import {
  RECOGNISED_FRACTIONS,
  convertQuantity,
  formatMetric,
  formatQuantity,
  parseQuantity,
  toSystem,
  unitText,
  type Measured,
  type MeasurementSystem,
  type UnitDict,
} from '../recipes/quantities.ts';

/** One ingredient going to the House To Get list: already scaled to the chosen servings, in its recipe unit. */
export type ShoppingLine = { name: string; pluralName: string; quantity: number | null; unit: string | null };
/** An open To Get item as stored: its task and free-text quantity ('700 g', '5', '2 cloves', or anything typed). */
export type ListLine = { id: number; task: string; quantity: string | null };
export type ShoppingPlan = { updates: { id: number; quantity: string | null }[]; inserts: { task: string; quantity: string | null }[] };

const PLAIN = { improperFractions: false, decimals: false };

/**
 * An ingredient as a shopping list names it: without an amount typed into the name ('2 onions' ->
 * 'onions', read by parse-ingredient), without its preparation (what follows the first comma: 'onion,
 * finely chopped' -> 'onion') and without asides in brackets.
 */
export function shoppingName(name: string): string {
  const described = parseIngredient(name.trim())[0]?.description ?? name;
  const bare = described.replace(/\([^)]*\)/g, ' ').split(',')[0]!.replace(/\s+/g, ' ').trim();
  return bare === '' ? name.trim() : bare;
}

/** The key one ingredient merges by, however worded: its shopping name, lower case, singular ('Onions, sliced' and 'onion'). */
export function ingredientKey(name: string): string {
  return pluralize.singular(shoppingName(name).toLocaleLowerCase());
}

/** The plural of a shopping name ('onion' -> 'onions'), for a count above one. */
export function pluralName(name: string): string {
  return pluralize.plural(name);
}

/** Whether a list item's task names the ingredient (however worded: case, plural and preparation aside, by its name or plural name). */
export function sameIngredient(task: string, line: Pick<ShoppingLine, 'name' | 'pluralName'>): boolean {
  const mine = ingredientKey(task);
  return mine !== '' && [line.name, line.pluralName].filter((n) => n.trim() !== '').some((n) => ingredientKey(n) === mine);
}

/** The unit a written word means: an abbreviation, a name or a plural name of the dictionary. */
function unitOf(word: string, dict: UnitDict): string | null {
  const w = word.trim().toLocaleLowerCase();
  for (const [abbreviation, unit] of Object.entries(dict)) {
    if (abbreviation.toLocaleLowerCase() === w || unit.name.toLocaleLowerCase() === w || unit.plural_name.toLocaleLowerCase() === w) return abbreviation;
  }
  return null;
}

/** A stored quantity read back: '700 g', '5', '1 1/2 cup', '2 cloves'; empty is no amount; null when it cannot be read. */
export function readAmount(text: string | null, dict: UnitDict): Measured | null {
  if (text === null || text.trim() === '') return { quantity: null, unit: null };
  const whole = parseQuantity(text);
  if (whole !== null) return { quantity: whole, unit: null };
  const match = /^(.*?\d[\d/.,\s¼-¾⅐-⅞]*?)\s*([^\d\s/.,¼-¾⅐-⅞][^\d]*)$/.exec(text.trim());
  if (!match) return null;
  const quantity = parseQuantity(match[1]!);
  const unit = unitOf(match[2]!, dict);
  return quantity === null || unit === null ? null : { quantity, unit };
}

/** The smallest whole number or recognised fraction not below `value` (7.2 -> 7 1/4): what a list may show without losing food. */
export function ceilFraction(value: number): number {
  const whole = Math.floor(value + 1e-9);
  const part = value - whole;
  if (part <= 1e-9) return whole;
  for (const [n, d] of [...RECOGNISED_FRACTIONS].sort((x, y) => x[0] / x[1] - y[0] / y[1])) {
    if (n / d >= part - 1e-9) return whole + n / d;
  }
  return whole + 1;
}

/** A metric amount rounded up as metric recipes write it: whole from 10 up (g, ml), tenths below; litres and kilograms to hundredths. */
function ceilMetric(value: number, size: number): number {
  if (size <= 1) return value >= 10 ? Math.ceil(value - 1e-9) : Math.ceil(value * 10 - 1e-9) / 10;
  return Math.ceil(value * 100 - 1e-9) / 100;
}

/**
 * An amount as the list stores it, rounded up (never less than the sum): metric in decimals
 * ('701 g'), the others to the next recognised fraction ('7 1/4 tbsp'); counts and named units
 * ('cups') as the recipe page writes them.
 */
export function writeAmount(amount: Measured, dict: UnitDict): string | null {
  if (amount.quantity === null) return null;
  const unit = amount.unit === null ? undefined : dict[amount.unit];
  const shown = unit?.system === 'metric' ? ceilMetric(amount.quantity, unit.size) : ceilFraction(amount.quantity);
  const number = unit?.system === 'metric' ? formatMetric(shown, unit) : formatQuantity(shown, PLAIN);
  if (amount.unit === null || !unit) return amount.unit === null ? number : `${number} ${amount.unit}`;
  return `${number} ${unitText(amount.unit, shown > 1, dict)}`;
}

/**
 * An amount in the chosen system, exact: a unit already of that system stays as it is (cups stay
 * cups, never quarts); one of the other system is converted to the unit that reads best there.
 * 'as-written' keeps every unit.
 */
function inSystem(amount: Measured, system: MeasurementSystem, dict: UnitDict): Measured {
  const unit = amount.unit === null ? undefined : dict[amount.unit];
  if (system === 'as-written' || !unit || unit.system === 'any' || (unit.system === 'us') === (system === 'american')) return amount;
  return toSystem(amount, system, dict);
}

/**
 * Two amounts of one ingredient as one, exactly, or null when they cannot be added: no amount adds
 * nothing; plain numbers add; masses with masses and volumes with volumes add through their sizes,
 * in the unit the first already uses (200 g + 0.5 kg = 700 g; 2 tbsp + 1/4 cup = 6 tbsp); a count
 * unit adds only to itself. Rounding is only for display (writeAmount, up).
 */
export function addAmounts(a: Measured, b: Measured, dict: UnitDict): Measured | null {
  if (b.quantity === null) return a;
  if (a.quantity === null) return b;
  if (a.unit === null || b.unit === null) return a.unit === b.unit ? { quantity: a.quantity + b.quantity, unit: null } : null;
  if (a.unit === b.unit && dict[a.unit]?.dimension === 'count') return { quantity: a.quantity + b.quantity, unit: a.unit };
  const ua = dict[a.unit];
  const ub = dict[b.unit];
  if (!ua || !ub || ua.dimension !== ub.dimension || ua.dimension === 'count') return null;
  return { quantity: a.quantity + convertQuantity(b.quantity, ub, ua), unit: a.unit };
}

/**
 * What adding recipe lines to the open To Get items changes: a line whose ingredient is already on
 * the list with a compatible amount is added into that item (updates); anything else becomes a new
 * item (inserts), so an incompatible amount ('1 can' next to '200 g') stays its own line and nothing
 * is lost. New amounts are written in the chosen measurement system.
 */
export function planShopping(list: readonly ListLine[], lines: readonly ShoppingLine[], system: MeasurementSystem, dict: UnitDict): ShoppingPlan {
  type Entry = { id: number | null; task: string; amount: Measured | null; quantity: string | null; changed: boolean; line?: ShoppingLine };
  const entries: Entry[] = list.map((item) => ({ id: item.id, task: item.task, amount: readAmount(item.quantity, dict), quantity: item.quantity, changed: false }));
  for (const line of lines) {
    const amount = line.quantity === null ? { quantity: null, unit: null } : inSystem({ quantity: line.quantity, unit: line.unit }, system, dict);
    let merged = false;
    for (const entry of entries) {
      if (entry.amount === null || !sameIngredient(entry.task, line)) continue;
      const sum = addAmounts(entry.amount, amount, dict);
      if (sum === null) continue;
      if (amount.quantity !== null) {
        entry.amount = sum;
        entry.quantity = writeAmount(sum, dict);
        entry.changed = true;
      }
      merged = true;
      break;
    }
    if (merged) continue;
    entries.push({ id: null, task: shoppingName(line.name), amount, quantity: writeAmount(amount, dict), changed: true, line });
  }
  /** A new item reads '1 lemon', '1/2 pepper', '3 onions', '200 g flour', 'salt': the plural only for a count above one. */
  const taskOf = (e: Entry) => {
    const count = e.amount?.unit === null ? e.amount.quantity : null;
    if (!e.line || (count !== null && count <= 1)) return e.task;
    const plural = e.line.pluralName.trim() === '' ? e.task : shoppingName(e.line.pluralName);
    return count !== null && plural === e.task ? pluralName(e.task) : plural;
  };
  const changed = entries.filter((e) => e.changed);
  return {
    updates: changed.flatMap((e) => (e.id === null ? [] : [{ id: e.id, quantity: e.quantity }])),
    inserts: changed.flatMap((e) => (e.id === null ? [{ task: taskOf(e), quantity: e.quantity }] : [])),
  };
}
