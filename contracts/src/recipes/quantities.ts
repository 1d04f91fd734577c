/**
 * Quantities of recipe ingredients: how a number is written (recognised fractions, mixed or
 * improper, or decimals), scaling by servings, and conversion between measurement systems through
 * the unit dictionary. Pure: no I/O, used by the pages, the JSON-LD export and the tests alike.
 */

/** The fractions a cook reads at a glance, as the spec lists them (section 9). */
export const RECOGNISED_FRACTIONS = [
  [1, 8],
  [1, 6],
  [1, 4],
  [1, 3],
  [3, 8],
  [1, 2],
  [5, 8],
  [2, 3],
  [3, 4],
  [5, 6],
  [7, 8],
] as const satisfies readonly (readonly [number, number])[];

export type Dimension = 'volume' | 'mass' | 'count';
/** 'any' for counts (pinch, clove, can): the same in every system. */
export type UnitSystem = 'metric' | 'us' | 'any';

/** One unit of the dictionary. `size` is in the dimension's base unit: ml for volume, g for mass, 1 for counts. */
export type Unit = { name: string; plural_name: string; size: number; dimension: Dimension; system: UnitSystem };
/** The unit dictionary, keyed by abbreviation. */
export type UnitDict = Readonly<Record<string, Unit>>;

export type MeasurementSystem = 'as-written' | 'metric' | 'american';
export type NumberStyle = { improperFractions: boolean; decimals: boolean };

/** Below this a positive quantity is not rounded to a fraction (it would read as 0). */
const SMALLEST_FRACTION = 1 / 16;

const plain = new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 2 });
const whole = (value: number) => plain.format(value);

/** Two decimals at most, no exponent; tiny amounts read '< 0.01', never 0. */
function decimalText(value: number): string {
  if (value > 0 && value < 0.01) return '< 0.01';
  return plain.format(value);
}

/** The nearest whole number or recognised fraction: `[whole, numerator, denominator]` (numerator 0 for none). */
export function nearestFraction(value: number): [whole: number, numerator: number, denominator: number] {
  const whole = Math.floor(value);
  const part = value - whole;
  let best: [number, number, number] = [whole, 0, 1];
  let bestDistance = part;
  for (const [n, d] of RECOGNISED_FRACTIONS) {
    const distance = Math.abs(part - n / d);
    if (distance < bestDistance) [best, bestDistance] = [[whole, n, d], distance];
  }
  if (1 - part < bestDistance) best = [whole + 1, 0, 1];
  return best;
}

/**
 * A quantity as the member reads it: '' for an empty quantity, otherwise the nearest recognised
 * fraction ('1 1/2', or '3/2' with improper fractions), or up to two decimals ('1.5') when decimals
 * are on. Negative and non-finite values are not quantities: they read as ''.
 */
export function formatQuantity(value: number | null | undefined, style: NumberStyle): string {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 0) return '';
  const quantity = value + 0; // -0 reads as 0
  if (style.decimals || (quantity > 0 && quantity < SMALLEST_FRACTION)) return decimalText(quantity);
  const [units, n, d] = nearestFraction(quantity);
  if (n === 0) return whole(units);
  if (units === 0) return `${n}/${d}`;
  return style.improperFractions ? `${whole(units * d + n)}/${d}` : `${whole(units)} ${n}/${d}`;
}

/** The value a formatted quantity stands for (what the member sees, not the stored number). */
export function displayedValue(quantity: number, style: NumberStyle): number {
  if (quantity > 0 && quantity < 0.01) return quantity;
  if (style.decimals || quantity < SMALLEST_FRACTION) return Math.round(quantity * 100) / 100;
  const [units, n, d] = nearestFraction(quantity);
  return units + n / d;
}

const UNICODE_FRACTIONS: Record<string, number> = {
  '¼': 1 / 4,
  '½': 1 / 2,
  '¾': 3 / 4,
  '⅐': 1 / 7,
  '⅑': 1 / 9,
  '⅒': 1 / 10,
  '⅓': 1 / 3,
  '⅔': 2 / 3,
  '⅕': 1 / 5,
  '⅖': 2 / 5,
  '⅗': 3 / 5,
  '⅘': 4 / 5,
  '⅙': 1 / 6,
  '⅚': 5 / 6,
  '⅛': 1 / 8,
  '⅜': 3 / 8,
  '⅝': 5 / 8,
  '⅞': 7 / 8,
};

/**
 * Reads a written quantity: '2', '1.5', '1,5', '3/4', '1 1/2', '1½', '½', '3/2'. A range ('2-3')
 * reads as its first number. Returns null for anything else.
 */
export function parseQuantity(text: string): number | null {
  const written = text
    .trim()
    .replace(/[\u2044\u2215]/g, '/').replace(/\s*[-–]\s*[\d.,/ ¼-¾⅐-⅞]+$/, '');
  const number = (digits: string) => Number(digits.replace(',', '.'));
  const mixedOrImproper = /^(?:(\d+(?:[.,]\d+)?)\s+)?(\d+)\s*\/\s*(\d+)$/.exec(written);
  if (mixedOrImproper) {
    const [, lead, num, den] = mixedOrImproper;
    if (Number(den) === 0) return null;
    return (lead === undefined ? 0 : number(lead)) + Number(num) / Number(den);
  }
  const withGlyph = /^(\d+(?:[.,]\d+)?)?\s*([¼½¾⅐-⅞])?$/.exec(written);
  if (!withGlyph || written === '') return null;
  const [, lead, glyph] = withGlyph;
  const value = (lead === undefined ? 0 : number(lead)) + (glyph === undefined ? 0 : (UNICODE_FRACTIONS[glyph] ?? 0));
  return Number.isFinite(value) ? value : null;
}

/** A quantity for `servings` when the recipe is written for `baseServings` (unchanged without a base). */
export function scaleQuantity(quantity: number | null, servings: number, baseServings: number | null): number | null {
  if (quantity === null) return null;
  if (!baseServings || baseServings <= 0 || !Number.isFinite(servings) || servings <= 0) return quantity;
  return (quantity * servings) / baseServings;
}

/** A quantity in one unit expressed in another of the same dimension (exact, no rounding). */
export function convertQuantity(quantity: number, from: Unit, to: Unit): number {
  if (from.dimension !== to.dimension) throw new Error(`Cannot convert ${from.dimension} to ${to.dimension}`);
  return (quantity * from.size) / to.size;
}

/**
 * The units a member of each system reads, with the smallest amount each is used for (in the base
 * unit). The largest unit whose threshold the amount reaches is chosen: 1000 ml reads 1 l, 3 tsp
 * 1 tbsp, 4 tbsp 1/4 cup. Abbreviations missing from a dictionary are skipped.
 */
export const PREFERRED_UNITS: Record<'metric' | 'american', Record<'volume' | 'mass', readonly (readonly [string, number])[]>> = {
  metric: {
    volume: [
      ['l', 1000],
      ['ml', 0],
    ],
    mass: [
      ['kg', 1000],
      ['g', 0],
    ],
  },
  american: {
    volume: [
      ['gal', 3785.411784],
      ['qt', 946.352946],
      ['cup', 236.5882365 / 4],
      ['tbsp', 14.78676478125],
      ['tsp', 0],
    ],
    mass: [
      ['lb', 453.59237],
      ['oz', 0],
    ],
  },
};

export type Measured = { quantity: number | null; unit: string | null };

/**
 * An amount in the member's measurement system: 'as-written' leaves it alone; 'metric' and
 * 'american' convert volumes and masses through the dictionary's sizes to the preferred unit of the
 * amount's size. Counts, unknown units and empty quantities stay as written.
 */
export function toSystem(amount: Measured, system: MeasurementSystem, dict: UnitDict): Measured {
  const unit = amount.unit === null ? undefined : dict[amount.unit];
  if (system === 'as-written' || amount.quantity === null || !unit || unit.dimension === 'count') return amount;
  const target = preferredUnit(amount.quantity * unit.size, unit.dimension, system, dict);
  return target ? { quantity: inUnit(amount.quantity, amount.unit ?? '', target, system, dict), unit: target } : amount;
}

/**
 * The spoons as metric cooks count them: 1 tsp is 5 ml and 1 tbsp 15 ml (the exact US sizes, 4.93
 * and 14.79 ml, would read '4.9 ml', which nobody measures). Converting to American uses the exact sizes.
 */
export const METRIC_SPOONS: Readonly<Record<string, number>> = { tsp: 5, tbsp: 15 };

/** The member's unit for an amount of `base` (ml or g) in their system. */
function preferredUnit(base: number, dimension: 'volume' | 'mass', system: 'metric' | 'american', dict: UnitDict): string | null {
  for (const [abbreviation, threshold] of PREFERRED_UNITS[system][dimension]) {
    const target = dict[abbreviation];
    if (!target || target.dimension !== dimension) continue;
    if (base >= threshold - 1e-9 || threshold === 0) return abbreviation;
  }
  return null;
}

/** `quantity` of unit `from` in unit `to` of the same dimension; spoons count as 5 and 15 ml when going metric. */
function inUnit(quantity: number, from: string, to: string, system: MeasurementSystem, dict: UnitDict): number {
  const source = dict[from];
  const target = dict[to];
  if (!source || !target) return quantity;
  const size = system === 'metric' && target.system === 'metric' ? (METRIC_SPOONS[from] ?? source.size) : source.size;
  return (quantity * size) / target.size;
}

/**
 * A metric amount rounded the way a metric recipe writes it (5 ml, 250 g, 1.5 l): whole millilitres
 * and grams from 10 up, to the nearest 5 from 100 up; litres and kilograms to 0.05. Other units
 * are left for the fraction formatting.
 */
export function roundMetric(amount: Measured, dict: UnitDict): Measured {
  const unit = amount.unit === null ? undefined : dict[amount.unit];
  if (amount.quantity === null || !unit || unit.system !== 'metric') return amount;
  const q = amount.quantity;
  if (unit.size === 1) {
    if (q >= 100) return { ...amount, quantity: Math.round(q / 5) * 5 };
    if (q >= 10) return { ...amount, quantity: Math.round(q) };
    return amount;
  }
  return { ...amount, quantity: Math.max(Math.round(q * 20) / 20, q > 0 ? 0.05 : 0) };
}

const oneDecimal = new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 1 });

/**
 * A metric amount as metric recipes write it, never with a fraction: millilitres, grams and
 * milligrams whole from 10 up and with one decimal below ('2.5 ml'); litres, kilograms, decilitres
 * and centilitres with up to two decimals ('1.3 kg', '1.25 l').
 */
export function formatMetric(value: number, unit: Unit): string {
  if (!Number.isFinite(value) || value < 0) return '';
  if (unit.size <= 1) {
    if (value >= 10) return whole(Math.round(value));
    if (value > 0 && value < 0.05) return '< 0.1';
    return oneDecimal.format(value);
  }
  return decimalText(value);
}

export type IngredientLike = {
  name: string;
  plural_name: string;
  quantity: number | null;
  /** The top of a range, when the line has one ('2-3'). */
  quantity_max?: number | null;
  unit_abbreviation: string | null;
};
export type DisplayOptions = NumberStyle & { system: MeasurementSystem; servings?: number; baseServings?: number | null };
export type DisplayedIngredient = { name: string; quantity: string; unit: string; text: string };

/**
 * The unit's wording: abbreviations for volumes and masses ('tbsp', 'g'), the (plural) name for
 * counts and for a unit whose abbreviation is its name ('2 cups', never '2 cup').
 */
export function unitText(abbreviation: string | null, plural: boolean, dict: UnitDict): string {
  if (abbreviation === null) return '';
  const unit = dict[abbreviation];
  if (!unit || (unit.dimension !== 'count' && abbreviation !== unit.name)) return abbreviation;
  return plural ? unit.plural_name : unit.name;
}

/**
 * One amount in the unit it is shown in: metric units in decimals; a mass converted to ounces or
 * pounds in tenths, as a kitchen scale shows it ('8.8 oz', never '8 5/6 oz'); the others in the
 * member's number style.
 */
function amountText(value: number | null, unit: string | null, dict: UnitDict, options: DisplayOptions): string {
  if (value === null) return '';
  const shown = unit === null ? undefined : dict[unit];
  if (shown?.system === 'metric') return formatMetric(value, shown);
  if (options.system === 'american' && shown?.dimension === 'mass') return value > 0 && value < 0.05 ? '< 0.1' : oneDecimal.format(value);
  return formatQuantity(value, options);
}

/**
 * An ingredient as the member reads it: scaled to the chosen servings, converted to their system,
 * written in their number style (metric always in decimals); plural_name when the quantity shown is
 * not 1, a plural unit above 1, and no number for an empty quantity. A range keeps both ends, each scaled and converted
 * into the unit of the first. `text` is the whole line: '1 1/2 cup flour', '2 cloves garlic',
 * '2-2.5 dl milk', 'salt'.
 */
export function displayIngredient(ingredient: IngredientLike, dict: UnitDict, options: DisplayOptions): DisplayedIngredient {
  const scaleOf = (q: number | null) => scaleQuantity(q, options.servings ?? 1, options.servings === undefined ? null : (options.baseServings ?? null));
  const low = scaleOf(ingredient.quantity);
  const high = ingredient.quantity_max === undefined || ingredient.quantity === null ? null : scaleOf(ingredient.quantity_max);
  let measured: Measured = { quantity: low, unit: ingredient.unit_abbreviation };
  let top: number | null = high;
  if (options.system !== 'as-written') {
    const converted = toSystem(measured, options.system, dict);
    if (high !== null && converted.unit !== null && converted.unit !== measured.unit) {
      top = roundMetric({ quantity: inUnit(high, measured.unit ?? '', converted.unit, options.system, dict), unit: converted.unit }, dict).quantity;
    } else if (high !== null) top = roundMetric({ quantity: high, unit: converted.unit }, dict).quantity;
    measured = roundMetric(converted, dict);
  }
  const first = amountText(measured.quantity, measured.unit, dict, options);
  const second = top === null ? '' : amountText(top, measured.unit, dict, options);
  const quantity = second !== '' && second !== first ? `${first}-${second}` : first;
  const one = second === '' && measured.quantity !== null && first !== '' && Number(first) === 1;
  const name = one ? ingredient.name : ingredient.plural_name || ingredient.name;
  // A unit is plural above one ('2 cups', '1 1/2 cups'), singular up to it ('1/2 cup', '1 clove').
  const several = second !== '' || (measured.quantity !== null && first !== '' && !one && displayedValue(measured.quantity, options) > 1);
  const unit = unitText(measured.unit, several, dict);
  return { name, quantity, unit, text: [quantity, unit, name].filter((part) => part !== '').join(' ') };
}

/** A yield ('8-10 servings') scaled to the servings the member chose: both ends, whole numbers. */
export function scaledYield(servings: number, servingsMax: number | null, chosen: number): string {
  const factor = servings > 0 ? chosen / servings : 1;
  const low = Math.max(1, Math.round(servings * factor));
  const high = servingsMax === null ? null : Math.max(low, Math.round(servingsMax * factor));
  return high !== null && high !== low ? `${low}-${high}` : String(low);
}
