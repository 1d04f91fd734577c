import {
  convertQuantity,
  formatMetric,
  formatQuantity,
  parseQuantity,
  roundMetric,
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

/** The forms a name is matched by: lower case, and without a plural ending ('Eggs' and 'egg' match, 'tomatoes' and 'Tomato'). */
function forms(name: string): string[] {
  const key = name.trim().toLocaleLowerCase();
  return [key, key.replace(/(?:es|s)$/, '')];
}

/** Whether a list item's task names the ingredient (case and plural insensitive, by its name or plural name). */
export function sameIngredient(task: string, line: Pick<ShoppingLine, 'name' | 'pluralName'>): boolean {
  const mine = new Set(forms(task));
  return [line.name, line.pluralName].filter((n) => n.trim() !== '').some((n) => forms(n).some((f) => f !== '' && mine.has(f)));
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

/** An amount as the list stores it: metric in decimals, the others as fractions; counts and named units ('cups') as the recipe page writes them. */
export function writeAmount(amount: Measured, dict: UnitDict): string | null {
  if (amount.quantity === null) return null;
  const unit = amount.unit === null ? undefined : dict[amount.unit];
  const number = unit?.system === 'metric' ? formatMetric(amount.quantity, unit) : formatQuantity(amount.quantity, PLAIN);
  if (amount.unit === null || !unit) return amount.unit === null ? number : `${number} ${amount.unit}`;
  return `${number} ${unitText(amount.unit, amount.quantity > 1, dict)}`;
}

/** An amount in the chosen system ('as-written': the system its own unit belongs to), rounded as recipes write it. */
function inSystem(amount: Measured, system: MeasurementSystem, dict: UnitDict): Measured {
  const unit = amount.unit === null ? undefined : dict[amount.unit];
  const target = system !== 'as-written' ? system : unit?.system === 'us' ? 'american' : 'metric';
  return roundMetric(toSystem(amount, target, dict), dict);
}

/**
 * Two amounts of one ingredient as one, or null when they cannot be added: no amount adds nothing;
 * plain numbers add; masses with masses and volumes with volumes add through their sizes and are
 * written in the unit that reads best (200 g + 0.5 kg = 700 g); a count unit adds only to itself.
 */
export function addAmounts(a: Measured, b: Measured, system: MeasurementSystem, dict: UnitDict): Measured | null {
  if (b.quantity === null) return a;
  if (a.quantity === null) return b;
  if (a.unit === null || b.unit === null) return a.unit === b.unit ? { quantity: a.quantity + b.quantity, unit: null } : null;
  if (a.unit === b.unit && dict[a.unit]?.dimension === 'count') return { quantity: a.quantity + b.quantity, unit: a.unit };
  const ua = dict[a.unit];
  const ub = dict[b.unit];
  if (!ua || !ub || ua.dimension !== ub.dimension || ua.dimension === 'count') return null;
  const sum: Measured = { quantity: a.quantity + convertQuantity(b.quantity, ub, ua), unit: a.unit };
  return inSystem(sum, system, dict);
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
      const sum = addAmounts(entry.amount, amount, system, dict);
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
    entries.push({ id: null, task: line.name, amount, quantity: writeAmount(amount, dict), changed: true, line });
  }
  /** A new item reads '1 lemon', '3 onions', '200 g flour': the plural name unless exactly one of it. */
  const taskOf = (e: Entry) => {
    const one = e.amount?.quantity === 1 && e.amount.unit === null;
    return one || !e.line || e.line.pluralName.trim() === '' ? e.task : e.line.pluralName;
  };
  const changed = entries.filter((e) => e.changed);
  return {
    updates: changed.flatMap((e) => (e.id === null ? [] : [{ id: e.id, quantity: e.quantity }])),
    inserts: changed.flatMap((e) => (e.id === null ? [{ task: taskOf(e), quantity: e.quantity }] : [])),
  };
}
