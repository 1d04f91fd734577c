import type { UnitDict } from './quantities.ts';

const TSP = 4.92892159375;

/**
 * The common kitchen units the dictionary ships with (a migration inserts them): metric and US
 * volume in millilitres, metric and US mass in grams, and counts, each its own base (size 1).
 * US sizes are the exact legal definitions (1 US cup = 236.5882365 ml, 1 lb = 453.59237 g).
 */
export const KITCHEN_UNITS = {
  ml: { name: 'millilitre', plural_name: 'millilitres', size: 1, dimension: 'volume', system: 'metric' },
  cl: { name: 'centilitre', plural_name: 'centilitres', size: 10, dimension: 'volume', system: 'metric' },
  dl: { name: 'decilitre', plural_name: 'decilitres', size: 100, dimension: 'volume', system: 'metric' },
  l: { name: 'litre', plural_name: 'litres', size: 1000, dimension: 'volume', system: 'metric' },
  tsp: { name: 'teaspoon', plural_name: 'teaspoons', size: TSP, dimension: 'volume', system: 'us' },
  tbsp: { name: 'tablespoon', plural_name: 'tablespoons', size: TSP * 3, dimension: 'volume', system: 'us' },
  'fl oz': { name: 'fluid ounce', plural_name: 'fluid ounces', size: TSP * 6, dimension: 'volume', system: 'us' },
  cup: { name: 'cup', plural_name: 'cups', size: TSP * 48, dimension: 'volume', system: 'us' },
  pt: { name: 'pint', plural_name: 'pints', size: TSP * 96, dimension: 'volume', system: 'us' },
  qt: { name: 'quart', plural_name: 'quarts', size: TSP * 192, dimension: 'volume', system: 'us' },
  gal: { name: 'gallon', plural_name: 'gallons', size: TSP * 768, dimension: 'volume', system: 'us' },
  mg: { name: 'milligram', plural_name: 'milligrams', size: 0.001, dimension: 'mass', system: 'metric' },
  g: { name: 'gram', plural_name: 'grams', size: 1, dimension: 'mass', system: 'metric' },
  kg: { name: 'kilogram', plural_name: 'kilograms', size: 1000, dimension: 'mass', system: 'metric' },
  oz: { name: 'ounce', plural_name: 'ounces', size: 28.349523125, dimension: 'mass', system: 'us' },
  lb: { name: 'pound', plural_name: 'pounds', size: 453.59237, dimension: 'mass', system: 'us' },
  pinch: { name: 'pinch', plural_name: 'pinches', size: 1, dimension: 'count', system: 'any' },
  dash: { name: 'dash', plural_name: 'dashes', size: 1, dimension: 'count', system: 'any' },
  clove: { name: 'clove', plural_name: 'cloves', size: 1, dimension: 'count', system: 'any' },
  can: { name: 'can', plural_name: 'cans', size: 1, dimension: 'count', system: 'any' },
  slice: { name: 'slice', plural_name: 'slices', size: 1, dimension: 'count', system: 'any' },
  stick: { name: 'stick', plural_name: 'sticks', size: 1, dimension: 'count', system: 'any' },
  bunch: { name: 'bunch', plural_name: 'bunches', size: 1, dimension: 'count', system: 'any' },
  sprig: { name: 'sprig', plural_name: 'sprigs', size: 1, dimension: 'count', system: 'any' },
  package: { name: 'package', plural_name: 'packages', size: 1, dimension: 'count', system: 'any' },
} as const satisfies UnitDict;

/**
 * Words recipe sites write for units, mapped to the dictionary's abbreviations (the JSON-LD import
 * reads '2 tablespoons' as 2 tbsp). Abbreviations and the dictionary's names and plurals also match.
 */
export const UNIT_ALIASES: Readonly<Record<string, string>> = {
  teaspoon: 'tsp',
  teaspoons: 'tsp',
  t: 'tsp',
  tsps: 'tsp',
  tablespoon: 'tbsp',
  tablespoons: 'tbsp',
  tbs: 'tbsp',
  tbl: 'tbsp',
  tbsps: 'tbsp',
  T: 'tbsp',
  cups: 'cup',
  c: 'cup',
  'fluid ounce': 'fl oz',
  'fluid ounces': 'fl oz',
  'fl. oz': 'fl oz',
  'fl. oz.': 'fl oz',
  pint: 'pt',
  pints: 'pt',
  quart: 'qt',
  quarts: 'qt',
  gallon: 'gal',
  gallons: 'gal',
  milliliter: 'ml',
  milliliters: 'ml',
  millilitre: 'ml',
  millilitres: 'ml',
  mL: 'ml',
  liter: 'l',
  liters: 'l',
  litre: 'l',
  litres: 'l',
  L: 'l',
  gram: 'g',
  grams: 'g',
  gr: 'g',
  kilogram: 'kg',
  kilograms: 'kg',
  kgs: 'kg',
  milligram: 'mg',
  milligrams: 'mg',
  ounce: 'oz',
  ounces: 'oz',
  pound: 'lb',
  pounds: 'lb',
  lbs: 'lb',
};
