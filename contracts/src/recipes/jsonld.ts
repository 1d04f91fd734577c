/**
 * schema.org Recipe in JSON-LD, both ways: the format recipe sites embed and Mealie and Tandoor
 * exchange. Pure: the server's import/export procedures and the command line call these.
 */
import { RECOGNISED_FRACTIONS, parseQuantity, type UnitDict } from './quantities.ts';
import { stepsInOrder, type Ingredient, type Recipe, type RecipeInput } from './recipes.schemas.ts';
import { UNIT_ALIASES } from './units.ts';

export type ImportResult = { ok: true; recipe: RecipeInput } | { ok: false; message: string };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: Json | undefined): Json[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

function isRecipe(node: JsonObject): boolean {
  return asArray(node['@type']).some((t) => typeof t === 'string' && /^(?:https?:\/\/schema\.org\/|schema:)?Recipe$/.test(t));
}

/** The first Recipe node: the document itself, an element of a top-level array, or of an @graph (searched in depth). */
function findRecipe(value: Json, depth = 0): JsonObject | null {
  if (depth > 6) return null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findRecipe(item, depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (!isObject(value)) return null;
  if (isRecipe(value)) return value;
  for (const key of ['@graph', 'mainEntity', 'itemListElement']) {
    const inner = value[key];
    if (inner !== undefined) {
      const found = findRecipe(inner, depth + 1);
      if (found) return found;
    }
  }
  return null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Recipe sites put HTML in their text fields: tags out, the common entities decoded, spaces tidied. */
export function plainText(value: string): string {
  return value
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+\d*);/gi, (whole, name: string) => {
      const lower = name.toLowerCase();
      if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
      if (lower.startsWith('#') && lower !== '#39') return String.fromCodePoint(Number(lower.slice(1)));
      return ENTITIES[lower] ?? whole;
    })
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .trim();
}

function textOf(value: Json | undefined): string {
  if (typeof value === 'string') return plainText(value);
  if (typeof value === 'number') return String(value);
  return '';
}

function authorOf(value: Json | undefined): string {
  return asArray(value)
    .map((a) => (isObject(a) ? textOf(a.name) : textOf(a)))
    .filter((a) => a !== '')
    .join(', ');
}

function servingsOf(value: Json | undefined): number | null {
  for (const item of asArray(value)) {
    const match = typeof item === 'number' ? [String(item)] : typeof item === 'string' ? /\d+/.exec(item) : null;
    const n = match ? Math.round(Number(match[0])) : NaN;
    if (Number.isInteger(n) && n >= 1 && n <= 1000) return n;
  }
  return null;
}

/** Step texts from a string, strings, HowToStep objects, or HowToSection objects holding steps. */
function instructionsOf(value: Json | undefined, depth = 0): string[] {
  if (depth > 4) return [];
  const steps: string[] = [];
  for (const item of asArray(value)) {
    if (typeof item === 'string') {
      steps.push(...plainText(item).split(/\n+/).map((s) => s.trim()).filter(Boolean));
    } else if (isObject(item)) {
      if (item.itemListElement !== undefined) steps.push(...instructionsOf(item.itemListElement, depth + 1));
      else {
        const text = textOf(item.text) || textOf(item.name) || textOf(item.description);
        if (text) steps.push(text);
      }
    }
  }
  return steps;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every way a unit may be written, longest first, with the abbreviation it stands for. */
function unitWords(dict: UnitDict): [RegExp, string][] {
  const words = new Map<string, string>();
  for (const [abbreviation, unit] of Object.entries(dict)) {
    for (const word of [abbreviation, unit.name, unit.plural_name]) words.set(word, abbreviation);
  }
  for (const [alias, abbreviation] of Object.entries(UNIT_ALIASES)) if (dict[abbreviation]) words.set(alias, abbreviation);
  return [...words.entries()]
    .sort(([a], [b]) => b.length - a.length)
    // Single capital letters (T, L) are case-sensitive: 'T' is a tablespoon, 't' a teaspoon.
    .map(([word, abbreviation]) => [new RegExp(`^${escapeRegExp(word)}\\.?(?=\\s|$)`, word.length === 1 ? '' : 'i'), abbreviation]);
}

const QUANTITY = /^(\d+(?:[.,]\d+)?\s+\d+\s*\/\s*\d+|\d+\s*\/\s*\d+|\d+(?:[.,]\d+)?\s*[¼½¾⅐-⅞]?|[¼½¾⅐-⅞])(?:\s*(?:-|–|to)\s*(?:\d+(?:[.,]\d+)?(?:\s*\/\s*\d+)?|[¼½¾⅐-⅞]))?/;

/** '1 1/2 cups flour, sifted' -> 1.5, 'cup', 'flour, sifted'. A line without a number keeps its words as the name. */
export function parseIngredientLine(line: string, dict: UnitDict): Ingredient {
  let rest = plainText(line).replace(/\s+/g, ' ').trim();
  let quantity: number | null = null;
  const q = QUANTITY.exec(rest);
  if (q) {
    const first = q[1] ?? '';
    quantity = parseQuantity(first);
    if (quantity !== null) rest = rest.slice(q[0].length).trim();
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
  const name = rest || (unit ? (dict[unit]?.name ?? unit) : line.trim());
  return { name, plural_name: name, quantity, unit_abbreviation: unit, image: null };
}

const MAX_INGREDIENTS_PER_STEP = 100;

/** Each ingredient goes with the first step that names it (or the last word of its name); otherwise the first step. */
function assignIngredients(steps: string[], ingredients: Ingredient[]): Ingredient[][] {
  const perStep: Ingredient[][] = steps.map(() => []);
  for (const ingredient of ingredients) {
    const words = ingredient.name.toLowerCase().replace(/,.*$/, '').replace(/\(.*?\)/g, '').trim();
    const last = words.split(' ').pop() ?? '';
    let index = steps.findIndex((s) => words !== '' && s.toLowerCase().includes(words));
    if (index < 0 && last.length >= 3) index = steps.findIndex((s) => s.toLowerCase().includes(last));
    const target = perStep[index >= 0 && (perStep[index]?.length ?? 0) < MAX_INGREDIENTS_PER_STEP ? index : 0];
    target?.push(ingredient);
  }
  return perStep;
}

/**
 * A schema.org Recipe (JSON text) as a recipe to save. What cannot be read is named in the message:
 * not JSON, no Recipe object, no name, no instructions.
 */
export function recipeFromJsonLd(json: string, dict: UnitDict): ImportResult {
  let document: Json;
  try {
    document = JSON.parse(json) as Json;
  } catch (error) {
    return { ok: false, message: `The file is not JSON: ${(error as Error).message}` };
  }
  const node = findRecipe(document);
  if (!node) return { ok: false, message: 'The file holds no schema.org Recipe (no object with "@type": "Recipe")' };
  const title = textOf(node.name) || textOf(node.headline);
  if (!title) return { ok: false, message: 'The recipe has no name' };
  const steps = instructionsOf(node.recipeInstructions);
  if (steps.length === 0) return { ok: false, message: 'The recipe has no recipeInstructions (at least one step is needed)' };
  const lines = asArray(node.recipeIngredient ?? node.ingredients).filter((l): l is string => typeof l === 'string' && l.trim() !== '');
  const ingredients = assignIngredients(steps, lines.map((line) => parseIngredientLine(line, dict)));
  return {
    ok: true,
    recipe: {
      title,
      author: authorOf(node.author),
      foreword: textOf(node.description),
      servings: servingsOf(node.recipeYield),
      steps: steps.map((instructions, i) => ({ instructions, ingredients: ingredients[i] ?? [] })),
    },
  };
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

/** One ingredient as a recipeIngredient line: '1 1/2 cup flour', '2 clove garlic', 'salt'. */
export function ingredientLine(ingredient: Ingredient): string {
  const quantity = ingredient.quantity === null ? '' : exactQuantityText(ingredient.quantity);
  const name = ingredient.quantity === 1 ? ingredient.name : ingredient.plural_name || ingredient.name;
  return [quantity, ingredient.unit_abbreviation ?? '', name].filter((part) => part !== '').join(' ');
}

/** A recipe as a schema.org Recipe object (serialise with JSON.stringify). */
export function recipeToJsonLd(recipe: Recipe): Record<string, unknown> {
  const steps = stepsInOrder(recipe);
  return {
    '@context': 'https://schema.org',
    '@type': 'Recipe',
    name: recipe.title,
    ...(recipe.author ? { author: { '@type': 'Person', name: recipe.author } } : {}),
    ...(recipe.foreword ? { description: recipe.foreword } : {}),
    datePublished: recipe.uploaded_date,
    ...(recipe.servings ? { recipeYield: `${recipe.servings} servings` } : {}),
    recipeIngredient: steps.flatMap((step) => step.ingredients.map(ingredientLine)),
    recipeInstructions: steps.map((step, i) => ({ '@type': 'HowToStep', position: i + 1, text: step.instructions })),
  };
}
