/**
 * schema.org Recipe in JSON-LD, both ways: the format recipe sites embed and Mealie and Tandoor
 * exchange. Pure: the server reads the text (a tolerant JSON parser, a full HTML entity table) and
 * hands the parsed document here; the export and the tests call these directly.
 */
import { RECOGNISED_FRACTIONS, parseQuantity, type UnitDict } from './quantities.ts';
import { RECIPE_LIMITS, stepsInOrder, type Ingredient, type Recipe, type RecipeInput } from './recipes.schemas.ts';
import { UNIT_ALIASES } from './units.ts';

export type ImportResult = { ok: true; recipe: RecipeInput } | { ok: false; message: string };

/** Decodes HTML character references ('&deg;' -> '°'); the server passes a full table, the default knows the common few. */
export type EntityDecoder = (html: string) => string;

export const jsonLdMessages = {
  notJson: (detail: string) => `The file is not JSON: ${detail}`,
  noRecipe: 'The file holds no schema.org Recipe (no object with "@type": "Recipe")',
  noName: 'The recipe has no name',
  noInstructions: 'The recipe has no recipeInstructions (at least one step is needed)',
} as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: Json | undefined): Json[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

const typesOf = (node: JsonObject): string[] =>
  asArray(node['@type'])
    .filter((t): t is string => typeof t === 'string')
    .map((t) => t.trim().replace(/^(?:https?:\/\/schema\.org\/|schema:)/i, '').toLowerCase());

const isRecipe = (node: JsonObject) => typesOf(node).includes('recipe');

/** Every object with an @id, so references like Yoast's `"author": { "@id": "#/schema/person/1" }` can be followed. */
function indexIds(value: Json, index: Map<string, JsonObject>, depth = 0): void {
  if (depth > 12) return;
  if (Array.isArray(value)) for (const item of value) indexIds(item, index, depth + 1);
  else if (isObject(value)) {
    const id = value['@id'];
    if (typeof id === 'string' && Object.keys(value).length > 1 && !index.has(id)) index.set(id, value);
    for (const inner of Object.values(value)) indexIds(inner, index, depth + 1);
  }
}

/** Every Recipe node anywhere, in document order: the document, arrays, @graph, mainEntity, ItemList elements, any property. */
function findRecipes(value: Json, found: JsonObject[] = [], depth = 0): JsonObject[] {
  if (depth > 12) return found;
  if (Array.isArray(value)) {
    for (const item of value) findRecipes(item, found, depth + 1);
  } else if (isObject(value)) {
    if (isRecipe(value)) found.push(value);
    else for (const inner of Object.values(value)) if (inner !== null && typeof inner === 'object') findRecipes(inner, found, depth + 1);
  }
  return found;
}

/** The recipe of a page: the first with instructions (a page may also list other recipes by name alone), else the first. */
function findRecipe(value: Json): JsonObject | null {
  const recipes = findRecipes(value);
  return recipes.find((r) => asArray(r.recipeInstructions ?? r.instructions).length > 0) ?? recipes[0] ?? null;
}

const BASIC_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The few entities every page uses, and numeric references: enough without the server's full table. */
export const basicEntities: EntityDecoder = (html) =>
  html.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : lower.startsWith('#') ? Number(lower.slice(1)) : NaN;
    if (!Number.isNaN(code)) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    return BASIC_ENTITIES[lower] ?? whole;
  });

const BLOCK = /<\s*(?:br\s*\/?|\/?\s*(?:p|div|li|h[1-6]|tr|ol|ul)\b[^<>]*)>/gi;
const TAG = /<!--[\s\S]*?-->|<\/?[a-z][^<>]*>/gi;
/** Zero-width, soft hyphen, bidi controls and byte-order marks: the text types refuse them, and nobody means them. */
// eslint-disable-next-line no-misleading-character-class -- each code point is matched on its own
const INVISIBLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]/g;
// eslint-disable-next-line no-control-regex -- control characters other than the line feed
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

/**
 * Recipe sites put HTML in their text fields, sometimes encoded twice ('&amp;deg;'): tags out
 * (line breaks for <br> and paragraphs, list items and other blocks), entities decoded until nothing changes, invisible and
 * control characters dropped, spaces tidied. Line breaks stay.
 */
export function plainText(value: string, decode: EntityDecoder = basicEntities): string {
  let text = value.replace(/\r\n?/g, '\n');
  for (let round = 0; round < 3; round++) {
    const stripped = text.replace(BLOCK, '\n').replace(TAG, '');
    const decoded = decode(stripped);
    text = decoded;
    if (decoded === stripped) break;
  }
  return text
    .replace(/\t/g, ' ')
    .replace(INVISIBLE, '')
    .replace(CONTROL, '')
    .replace(/[ \u00a0\u2000-\u200a\u202f\u205f\u3000]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

/** One line of at most `max` characters, cut at a word where one is near. */
export function cutText(text: string, max: number): [kept: string, rest: string] {
  if (text.length <= max) return [text, ''];
  const space = text.lastIndexOf(' ', max);
  const at = space > max * 0.6 ? space : max;
  return [text.slice(0, at).trim(), text.slice(at).trim()];
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ');

/** Reads one Recipe node, resolving @id references through `ids`. */
function reader(decode: EntityDecoder, ids: Map<string, JsonObject>) {
  const resolve = (value: Json | undefined): Json | undefined => {
    if (isObject(value) && typeof value['@id'] === 'string' && Object.keys(value).length === 1) return ids.get(value['@id']) ?? value;
    return value;
  };

  const textOf = (value: Json | undefined): string => {
    const v = resolve(value);
    if (typeof v === 'string') return plainText(v, decode);
    if (typeof v === 'number') return String(v);
    if (Array.isArray(v)) return textOf(v.find((item) => textOf(item) !== ''));
    if (isObject(v)) return textOf(v['@value'] ?? v.name ?? v.text);
    return '';
  };

  const authorOf = (value: Json | undefined): string =>
    [...new Set(asArray(resolve(value)).map((a) => oneLine(textOf(a))).filter((a) => a !== ''))].join(', ');

  /** Step texts with the heading of the section each belongs to. */
  const instructionsOf = (value: Json | undefined, section: string, out: { section: string; text: string }[], depth = 0): void => {
    if (depth > 8) return;
    for (const raw of asArray(resolve(value))) {
      const item = resolve(raw);
      if (typeof item === 'string') {
        for (const text of splitSteps(plainText(item, decode))) out.push({ section, text });
      } else if (Array.isArray(item)) {
        instructionsOf(item, section, out, depth + 1);
      } else if (isObject(item)) {
        const types = typesOf(item);
        const inner = item.itemListElement ?? item.steps ?? item.step;
        if (types.includes('howtosection') || (inner !== undefined && !types.includes('howtostep'))) {
          const name = oneLine(textOf(item.name));
          instructionsOf(inner, types.includes('howtosection') && name ? name : section, out, depth + 1);
          continue;
        }
        const text = textOf(item.text) || textOf(item.description) || textOf(item.name);
        if (text) out.push({ section, text: stripNumber(text) });
        else if (inner !== undefined) instructionsOf(inner, section, out, depth + 1);
      }
    }
  };

  const ingredientLines = (value: Json | undefined): string[] =>
    asArray(resolve(value)).flatMap((item) => {
      const v = resolve(item);
      if (typeof v === 'string') return plainText(v, decode).split('\n');
      if (Array.isArray(v)) return ingredientLines(v);
      if (isObject(v)) return [oneLine(textOf(v.text ?? v.name))];
      return [];
    });

  return { resolve, textOf, authorOf, instructionsOf, ingredientLines };
}

/** '1. Mix.', 'Step 2: Bake' -> the words alone. */
const stripNumber = (text: string) => text.replace(/^(?:step\s*)?\d{1,2}\s*[.):]\s+(?=\S)/i, '');

/** One block of text as steps: at line breaks, or at numbered sentences ('1. Mix. 2. Bake.') when it is one line. */
export function splitSteps(text: string): string[] {
  let parts = text.split('\n');
  if (parts.length === 1) {
    const numbered = [...text.matchAll(/(?:^|(?<=[.!?)]\s+))(?:step\s*(\d{1,2})\s*[.):]?|(\d{1,2})[.)])\s+/gi)];
    const counting = numbered.every((m, i) => Number(m[1] ?? m[2]) === i + 1);
    if (numbered.length >= 2 && counting) {
      parts = numbered.map((m, i) => text.slice(m.index, numbered[i + 1]?.index ?? text.length));
      const lead = text.slice(0, numbered[0]?.index ?? 0).trim();
      if (lead) parts.unshift(lead);
    }
  }
  return parts.map((p) => stripNumber(p.trim())).filter((p) => p !== '');
}

/** 'PT1H30M', 'P0DT0H20M', 'PT0.5H', '45 minutes' -> minutes; null for nothing readable or nothing at all. */
export function durationMinutes(value: string): number | null {
  const iso = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(value.trim().replace(/\s+/g, ''));
  let minutes: number | null = null;
  if (iso && /\d/.test(value)) {
    const [, d = '0', h = '0', m = '0', s = '0'] = iso;
    minutes = Number(d) * 1440 + Number(h) * 60 + Number(m) + Number(s) / 60;
  } else {
    const hours = /(\d+(?:\.\d+)?)\s*(?:h|hours?|hrs?)\b/i.exec(value);
    const mins = /(\d+)\s*(?:m|mins?|minutes?)\b/i.exec(value);
    if (hours || mins) minutes = Number(hours?.[1] ?? 0) * 60 + Number(mins?.[1] ?? 0);
  }
  if (minutes === null) return null;
  const rounded = Math.round(minutes);
  return rounded >= 1 && rounded <= RECIPE_LIMITS.minutes ? rounded : null;
}

const servingsNumber = (n: number) => (Number.isFinite(n) && n >= 1 ? Math.min(Math.round(n), RECIPE_LIMITS.servings) : null);

/** recipeYield as a number, text ('Makes 24'), list, range ('8-10 servings') or QuantitativeValue: [from, to or null]. */
export function yieldOf(value: unknown): [number | null, number | null] {
  for (const item of Array.isArray(value) ? value : [value]) {
    if (typeof item === 'number') {
      const n = servingsNumber(item);
      if (n !== null) return [n, null];
    } else if (typeof item === 'string') {
      const range = /(\d+(?:\.\d+)?)\s*(?:-|–|—|to|or)\s*(\d+(?:\.\d+)?)/i.exec(item);
      if (range) {
        const [low, high] = [servingsNumber(Number(range[1])), servingsNumber(Number(range[2]))];
        if (low !== null && high !== null && high > low) return [low, high];
        if (low !== null) return [low, null];
      }
      const one = /\d+(?:\.\d+)?/.exec(item);
      const n = one ? servingsNumber(Number(one[0])) : null;
      if (n !== null) return [n, null];
    } else if (isObject(item)) {
      const low = item.minValue ?? item.value;
      const high = item.maxValue;
      const [from] = yieldOf(low);
      const [to] = yieldOf(high);
      if (from !== null) return [from, to !== null && to > from ? to : null];
    }
  }
  return [null, null];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const unitPatterns = new WeakMap<UnitDict, [RegExp, string][]>();

/** Every way a unit may be written, longest first, with the abbreviation it stands for. */
function unitWords(dict: UnitDict): [RegExp, string][] {
  const cached = unitPatterns.get(dict);
  if (cached) return cached;
  const words = new Map<string, string>();
  for (const [abbreviation, unit] of Object.entries(dict)) {
    for (const word of [abbreviation, unit.name, unit.plural_name]) words.set(word, abbreviation);
  }
  for (const [alias, abbreviation] of Object.entries(UNIT_ALIASES)) if (dict[abbreviation]) words.set(alias, abbreviation);
  const patterns = [...words.entries()]
    .sort(([a], [b]) => b.length - a.length)
    // Single capital letters (T, L) are case-sensitive: 'T' is a tablespoon, 't' a teaspoon.
    .map(([word, abbreviation]): [RegExp, string] => [new RegExp(`^${escapeRegExp(word)}\\.?(?=[\\s,)/]|$)`, word.length === 1 ? '' : 'i'), abbreviation]);
  unitPatterns.set(dict, patterns);
  return patterns;
}

const GLYPH = '[¼½¾⅐-⅞]';
/** One amount: '2', '1.5', '1,5', '3/4', '1 1/2', '1½', '½'. */
const AMOUNT = `(?:\\d+(?:[.,]\\d+)?(?:\\s+\\d+\\s*/\\s*\\d+|\\s*${GLYPH})?|\\d+\\s*/\\s*\\d+|${GLYPH})`;
/** An amount, or a range of two ('2-3', '2 - 2 1/2', '4 or 5', '1 to 2'). */
const QUANTITY = new RegExp(`^(${AMOUNT})(?:\\s*(?:-|–|—|to|or)\\s*(${AMOUNT}))?(?![\\d/])`, 'i');

/** The fraction slash and '1-1/2' (a whole and a fraction joined by a hyphen) in the plain form. */
function normaliseAmounts(text: string): string {
  return text
    .replace(/[\u2044\u2215]/g, '/')
    .replace(/(\d)\s*\/\s*(\d)/g, '$1/$2')
    .replace(/\b(\d+)-(\d+)\/(\d+)\b/g, (whole, w: string, n: string, d: string) => (Number(n) < Number(d) ? `${w} ${n}/${d}` : whole));
}

/** An ingredient of the import, before its step is known. */
export type ParsedIngredient = Required<Omit<Ingredient, 'image'>> & { image: null };

/**
 * '1 1/2 cups flour, sifted' -> 1.5, 'cup', 'flour, sifted'; '2 - 2 1/2 dl milk' -> 2 to 2.5 dl.
 * A line without a number keeps its words as the name. A name longer than a name may be is cut
 * at a word and the rest goes in the note.
 */
export function parseIngredientLine(line: string, dict: UnitDict, decode: EntityDecoder = basicEntities): ParsedIngredient {
  const full = normaliseAmounts(oneLine(plainText(line, decode)));
  let rest = full;
  let quantity: number | null = null;
  let quantityMax: number | null = null;
  const q = QUANTITY.exec(rest);
  if (q) {
    const low = parseQuantity(q[1] ?? '');
    const high = q[2] === undefined ? null : parseQuantity(q[2]);
    if (low !== null && low <= RECIPE_LIMITS.quantity) {
      quantity = low;
      quantityMax = high !== null && high > low && high <= RECIPE_LIMITS.quantity ? high : null;
      rest = rest.slice(q[0].length).trim();
    }
  }
  let unit: string | null = null;
  for (const [pattern, abbreviation] of unitWords(dict)) {
    const match = pattern.exec(rest);
    if (match) {
      unit = abbreviation;
      rest = rest.slice(match[0].length).trim().replace(/^of\s+/i, '');
      break;
    }
  }
  // '200g/7oz butter': the other measure goes in the note.
  const alternative = /^\/\s*(\d[^\s]*)\s+/.exec(rest);
  let aside = '';
  if (unit && alternative) {
    aside = `(${alternative[1]})`;
    rest = rest.slice(alternative[0].length);
  }
  const words = rest || (unit ? (dict[unit]?.name ?? unit) : full) || 'ingredient';
  const [name, overflow] = cutText(words, RECIPE_LIMITS.ingredientName);
  const [note] = cutText([overflow, aside].filter(Boolean).join(' '), RECIPE_LIMITS.ingredientNote);
  return { name, plural_name: name, quantity, quantity_max: quantityMax, note, unit_abbreviation: unit, image: null };
}

/**
 * Each ingredient goes with the first step that names it (or the last word of its name), but never
 * before the step of the ingredient listed above it: read step by step, the ingredients keep the page's
 * order. One no step names stays with the one above it (the first step for the first); a full step
 * passes it to the next step with room.
 */
function assignIngredients(steps: string[], ingredients: ParsedIngredient[]): ParsedIngredient[][] {
  const perStep: ParsedIngredient[][] = steps.map(() => []);
  const hasRoom = (i: number) => (perStep[i]?.length ?? Infinity) < RECIPE_LIMITS.ingredientsPerStep;
  let floor = 0;
  for (const ingredient of ingredients) {
    const words = ingredient.name.toLowerCase().replace(/,.*$/, '').replace(/\(.*?\)/g, '').trim();
    const last = words.split(' ').pop() ?? '';
    const names = (from: number, text: string) => steps.findIndex((s, i) => i >= from && s.toLowerCase().includes(text));
    let index = words === '' ? -1 : names(floor, words);
    if (index < 0 && last.length >= 3) index = names(floor, last);
    if (index < 0) index = floor;
    while (index < perStep.length && !hasRoom(index)) index++;
    if (index >= perStep.length) break;
    perStep[index]?.push(ingredient);
    floor = index;
  }
  return perStep;
}

/** Steps past the limit join the last one; a step past its length is cut (never a reason to refuse). */
function fitSteps(steps: { section: string; text: string }[]): { section: string; text: string }[] {
  const kept = steps.slice(0, RECIPE_LIMITS.steps);
  const extra = steps.slice(RECIPE_LIMITS.steps);
  const last = kept[kept.length - 1];
  if (last && extra.length > 0) last.text = [last.text, ...extra.map((s) => s.text)].join('\n');
  return kept.map((s) => ({ section: s.section, text: s.text.slice(0, RECIPE_LIMITS.instructions).trim() }));
}

export type FromDocumentOptions = { decode?: EntityDecoder };

/**
 * A schema.org Recipe (a parsed JSON-LD document, or several from one page) as a recipe to save.
 * What cannot be read is named in the message: no Recipe object, no name, no instructions.
 */
export function recipeFromDocument(document: unknown, dict: UnitDict, options: FromDocumentOptions = {}): ImportResult {
  const root = document as Json;
  const node = findRecipe(root);
  if (!node) return { ok: false, message: jsonLdMessages.noRecipe };
  const ids = new Map<string, JsonObject>();
  indexIds(root, ids);
  const decode = options.decode ?? basicEntities;
  const read = reader(decode, ids);
  const title = cutText(oneLine(read.textOf(node.name) || read.textOf(node.headline)), RECIPE_LIMITS.title)[0];
  if (!title) return { ok: false, message: jsonLdMessages.noName };
  const found: { section: string; text: string }[] = [];
  read.instructionsOf(node.recipeInstructions ?? node.instructions, '', found);
  const steps = fitSteps(found.filter((s) => s.text !== ''));
  if (steps.length === 0) return { ok: false, message: jsonLdMessages.noInstructions };
  const lines = read.ingredientLines(node.recipeIngredient ?? node.ingredients).filter((l) => l.trim() !== '');
  const texts = steps.map((s) => s.text);
  const ingredients = assignIngredients(
    texts,
    lines.map((line) => parseIngredientLine(line, dict, decode)),
  );
  const [servings, servingsMax] = yieldOf(read.resolve(node.recipeYield ?? node.yield));
  const minutes = (value: Json | undefined) => {
    const text = read.textOf(value);
    return text ? durationMinutes(text) : null;
  };
  return {
    ok: true,
    recipe: {
      title,
      author: cutText(read.authorOf(node.author), RECIPE_LIMITS.author)[0],
      foreword: read.textOf(node.description).slice(0, RECIPE_LIMITS.foreword).trim(),
      servings,
      servings_max: servingsMax,
      prep_minutes: minutes(node.prepTime),
      cook_minutes: minutes(node.cookTime),
      total_minutes: minutes(node.totalTime),
      steps: steps.map((step, i) => ({
        section: steps[i - 1]?.section === step.section ? '' : cutText(step.section, RECIPE_LIMITS.section)[0],
        instructions: step.text,
        ingredients: ingredients[i] ?? [],
      })),
    },
  };
}

/** A schema.org Recipe as strict JSON text (the export's own files; pages go through the server's tolerant reader). */
export function recipeFromJsonLd(json: string, dict: UnitDict): ImportResult {
  let document: unknown;
  try {
    document = JSON.parse(json);
  } catch (error) {
    return { ok: false, message: jsonLdMessages.notJson((error as Error).message) };
  }
  return recipeFromDocument(document, dict);
}

/** A quantity written so it reads back exactly: a recognised fraction when it is one, else a short decimal. */
export function exactQuantityText(quantity: number): string {
  const whole = Math.floor(quantity);
  const part = quantity - whole;
  if (part < 1e-9) return String(whole);
  for (const [n, d] of RECOGNISED_FRACTIONS) {
    if (Math.abs(part - n / d) < 1e-9) return whole === 0 ? `${n}/${d}` : `${whole} ${n}/${d}`;
  }
  return String(Number(quantity.toFixed(4)));
}

type ExportedIngredient = Pick<Ingredient, 'name' | 'plural_name' | 'quantity' | 'unit_abbreviation'> & Partial<Pick<Ingredient, 'quantity_max' | 'note'>>;

/** One ingredient as a recipeIngredient line: '1 1/2 cup flour', '2-3 clove garlic', 'salt'. */
export function ingredientLine(ingredient: ExportedIngredient): string {
  const max = ingredient.quantity_max ?? null;
  const quantity =
    ingredient.quantity === null ? '' : exactQuantityText(ingredient.quantity) + (max !== null && max > ingredient.quantity ? ` - ${exactQuantityText(max)}` : '');
  const name = ingredient.quantity === 1 && max === null ? ingredient.name : ingredient.plural_name || ingredient.name;
  return [quantity, ingredient.unit_abbreviation ?? '', name, ingredient.note ?? ''].filter((part) => part !== '').join(' ');
}

const isoMinutes = (minutes: number | null | undefined) => (minutes ? `PT${Math.floor(minutes / 60) ? `${Math.floor(minutes / 60)}H` : ''}${minutes % 60 ? `${minutes % 60}M` : ''}` : null);

/** A recipe as a schema.org Recipe object (serialise with JSON.stringify). Sections come back as HowToSections. */
export function recipeToJsonLd(recipe: Recipe): Record<string, unknown> {
  const steps = stepsInOrder(recipe);
  const instructions: Record<string, unknown>[] = [];
  let section: { '@type': 'HowToSection'; name: string; itemListElement: unknown[] } | null = null;
  steps.forEach((step, i) => {
    const howTo = { '@type': 'HowToStep', position: i + 1, text: step.instructions };
    if (step.section) {
      section = { '@type': 'HowToSection', name: step.section, itemListElement: [] };
      instructions.push(section);
    }
    if (section) section.itemListElement.push(howTo);
    else instructions.push(howTo);
  });
  const times = { prepTime: isoMinutes(recipe.prep_minutes), cookTime: isoMinutes(recipe.cook_minutes), totalTime: isoMinutes(recipe.total_minutes) };
  return {
    '@context': 'https://schema.org',
    '@type': 'Recipe',
    name: recipe.title,
    ...(recipe.author ? { author: { '@type': 'Person', name: recipe.author } } : {}),
    ...(recipe.foreword ? { description: recipe.foreword } : {}),
    datePublished: recipe.uploaded_date,
    ...(recipe.servings ? { recipeYield: `${recipe.servings}${recipe.servings_max ? `-${recipe.servings_max}` : ''} servings` } : {}),
    ...Object.fromEntries(Object.entries(times).filter(([, v]) => v !== null)),
    recipeIngredient: steps.flatMap((step) => step.ingredients.map(ingredientLine)),
    recipeInstructions: instructions,
  };
}
