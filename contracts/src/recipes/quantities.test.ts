import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  METRIC_SPOONS,
  RECOGNISED_FRACTIONS,
  convertQuantity,
  scaledYield,
  displayIngredient,
  formatQuantity,
  nearestFraction,
  parseQuantity,
  scaleQuantity,
  toSystem,
  type DisplayOptions,
  type Unit,
} from './quantities.ts';
import { KITCHEN_UNITS } from './units.ts';

const dict = KITCHEN_UNITS;
const mixed = { improperFractions: false, decimals: false };
const improper = { improperFractions: true, decimals: false };
const decimals = { improperFractions: false, decimals: true };
const fractionValues = RECOGNISED_FRACTIONS.map(([n, d]) => n / d);

describe('formatQuantity', () => {
  it.each(RECOGNISED_FRACTIONS.map(([n, d]) => [n, d] as const))('shows %i/%i alone, mixed and improper', (n, d) => {
    expect(formatQuantity(n / d, mixed)).toBe(`${n}/${d}`);
    expect(formatQuantity(2 + n / d, mixed)).toBe(`2 ${n}/${d}`);
    expect(formatQuantity(2 + n / d, improper)).toBe(`${2 * d + n}/${d}`);
    expect(formatQuantity(n / d, improper)).toBe(`${n}/${d}`);
  });

  it('writes whole numbers without a fraction, and 1 1/2 or 3/2 by the switch', () => {
    expect(formatQuantity(3, mixed)).toBe('3');
    expect(formatQuantity(0, mixed)).toBe('0');
    expect(formatQuantity(1.5, mixed)).toBe('1 1/2');
    expect(formatQuantity(1.5, improper)).toBe('3/2');
  });

  it('rounds to the nearest recognised fraction, up to the next whole when that is nearest', () => {
    expect(formatQuantity(0.3, mixed)).toBe('1/3');
    expect(formatQuantity(1.97, mixed)).toBe('2');
    expect(formatQuantity(2.04, mixed)).toBe('2');
    expect(formatQuantity(0.7, mixed)).toBe('2/3');
  });

  it('writes decimals, at most two places, when decimals are on (improper fractions then do not matter)', () => {
    expect(formatQuantity(1.5, decimals)).toBe('1.5');
    expect(formatQuantity(1 / 3, decimals)).toBe('0.33');
    expect(formatQuantity(2, decimals)).toBe('2');
    expect(formatQuantity(1.5, { improperFractions: true, decimals: true })).toBe('1.5');
  });

  it('shows no number for an empty quantity, and nothing for values that are not quantities', () => {
    expect(formatQuantity(null, mixed)).toBe('');
    expect(formatQuantity(undefined, decimals)).toBe('');
    expect(formatQuantity(Number.NaN, mixed)).toBe('');
    expect(formatQuantity(-1, mixed)).toBe('');
    expect(formatQuantity(Number.POSITIVE_INFINITY, mixed)).toBe('');
  });

  it('never shows a tiny positive amount as 0', () => {
    expect(formatQuantity(0.02, mixed)).toBe('0.02');
    expect(formatQuantity(0.001, mixed)).toBe('< 0.01');
    expect(formatQuantity(5e-324, decimals)).toBe('< 0.01');
  });

  it('property: never a negative sign, NaN or Infinity, for any number at all', () => {
    const style = fc.record({ improperFractions: fc.boolean(), decimals: fc.boolean() });
    fc.assert(
      fc.property(fc.double(), style, (q, s) => {
        const shown = formatQuantity(q, s);
        expect(shown).not.toMatch(/-|NaN|Infinity|e/);
      }),
    );
  });

  it('property: the fraction shown is the nearest recognised one (or whole number)', () => {
    fc.assert(
      fc.property(fc.double({ min: 1 / 16, max: 10_000, noNaN: true }), (q) => {
        const [whole, n, d] = nearestFraction(q);
        const shownValue = whole + n / d;
        const candidates = [0, ...fractionValues, 1].map((f) => Math.floor(q) + f);
        const best = Math.min(...candidates.map((c) => Math.abs(c - q)));
        expect(Math.abs(shownValue - q)).toBeCloseTo(best, 9);
        expect(parseQuantity(formatQuantity(q, mixed))).toBeCloseTo(shownValue, 9);
        expect(parseQuantity(formatQuantity(q, improper))).toBeCloseTo(shownValue, 9);
      }),
    );
  });

  it('property: decimals read back within half a hundredth', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 1e6, noNaN: true }), (q) => {
        const back = parseQuantity(formatQuantity(q, decimals));
        expect(back).not.toBeNull();
        expect(Math.abs((back ?? 0) - q)).toBeLessThanOrEqual(0.005 + 1e-9);
      }),
    );
  });
});

describe('parseQuantity', () => {
  it.each([
    ['2', 2],
    ['1.5', 1.5],
    ['1,5', 1.5],
    ['3/4', 0.75],
    ['1 1/2', 1.5],
    ['3/2', 1.5],
    ['½', 0.5],
    ['1½', 1.5],
    ['2-3', 2],
  ])('reads %s as %d', (text, value) => expect(parseQuantity(text)).toBeCloseTo(value, 9));

  it.each(['', 'a pinch', '1/0', 'two'])('does not read %j', (text) => expect(parseQuantity(text)).toBeNull());
});

describe('conversion through the unit dictionary', () => {
  const units = Object.entries(dict) as [string, Unit][];
  const measurable = units.filter(([, u]) => u.dimension !== 'count');

  it.each([
    [{ quantity: 1000, unit: 'ml' }, 'metric', { quantity: 1, unit: 'l' }],
    [{ quantity: 3, unit: 'tsp' }, 'american', { quantity: 1, unit: 'tbsp' }],
    [{ quantity: 4, unit: 'tbsp' }, 'american', { quantity: 0.25, unit: 'cup' }],
    [{ quantity: 16, unit: 'oz' }, 'american', { quantity: 1, unit: 'lb' }],
    [{ quantity: 1500, unit: 'g' }, 'metric', { quantity: 1.5, unit: 'kg' }],
    [{ quantity: 1, unit: 'cup' }, 'metric', { quantity: 236.5882365, unit: 'ml' }],
    [{ quantity: 1, unit: 'lb' }, 'metric', { quantity: 453.59237, unit: 'g' }],
    [{ quantity: 250, unit: 'ml' }, 'american', { quantity: 250 / 236.5882365, unit: 'cup' }],
    [{ quantity: 100, unit: 'g' }, 'american', { quantity: 100 / 28.349523125, unit: 'oz' }],
    [{ quantity: 1, unit: 'gal' }, 'metric', { quantity: 3.785411784, unit: 'l' }],
  ] as const)('converts %j to %s as %j', (amount, system, expected) => {
    const result = toSystem(amount, system, dict);
    expect(result.unit).toBe(expected.unit);
    expect(result.quantity).toBeCloseTo(expected.quantity, 9);
  });

  it('leaves amounts alone as written, for counts, unknown units and empty quantities', () => {
    expect(toSystem({ quantity: 1000, unit: 'ml' }, 'as-written', dict)).toEqual({ quantity: 1000, unit: 'ml' });
    expect(toSystem({ quantity: 2, unit: 'clove' }, 'metric', dict)).toEqual({ quantity: 2, unit: 'clove' });
    expect(toSystem({ quantity: 2, unit: 'handful' }, 'metric', dict)).toEqual({ quantity: 2, unit: 'handful' });
    expect(toSystem({ quantity: null, unit: 'cup' }, 'metric', dict)).toEqual({ quantity: null, unit: 'cup' });
  });

  it('property: metric <-> American round trips keep the amount (spoons aside: metric counts them as 5 and 15 ml)', () => {
    const pick = fc.constantFrom(...measurable.filter(([abbreviation]) => !(abbreviation in METRIC_SPOONS)));
    fc.assert(
      fc.property(pick, fc.double({ min: 0.01, max: 1e5, noNaN: true }), (entry, q) => {
        const [abbreviation, unit] = entry;
        const there = toSystem({ quantity: q, unit: abbreviation }, unit.system === 'us' ? 'metric' : 'american', dict);
        if ((there.unit ?? '') in METRIC_SPOONS) return; // read back as 5 and 15 ml on purpose
        const back = toSystem(there, unit.system === 'us' ? 'american' : 'metric', dict);
        const baseBefore = q * unit.size;
        const baseAfter = (back.quantity ?? NaN) * (dict[back.unit as keyof typeof dict] as Unit).size;
        expect(Math.abs(baseAfter - baseBefore)).toBeLessThanOrEqual(baseBefore * 1e-9);
      }),
    );
  });

  it('property: conversion between units of one dimension is exact both ways, never negative or NaN', () => {
    const pairs = measurable.flatMap(([, a]) => measurable.filter(([, b]) => b.dimension === a.dimension).map(([, b]) => [a, b] as const));
    fc.assert(
      fc.property(fc.constantFrom(...pairs), fc.double({ min: 0, max: 1e6, noNaN: true }), ([a, b], q) => {
        const converted = convertQuantity(q, a, b);
        expect(Number.isNaN(converted)).toBe(false);
        expect(converted).toBeGreaterThanOrEqual(0);
        expect(convertQuantity(converted, b, a)).toBeCloseTo(q, 6);
      }),
    );
  });

  it('refuses to convert a volume to a mass', () => {
    expect(() => convertQuantity(1, dict.cup, dict.g)).toThrow('Cannot convert volume to mass');
  });
});

describe('scaleQuantity', () => {
  it('scales by servings over the recipe servings, and leaves empty quantities empty', () => {
    expect(scaleQuantity(2, 8, 4)).toBe(4);
    expect(scaleQuantity(1, 1, 4)).toBe(0.25);
    expect(scaleQuantity(null, 8, 4)).toBeNull();
    expect(scaleQuantity(2, 8, null)).toBe(2);
  });
});

describe('displayIngredient', () => {
  const asWritten: DisplayOptions = { ...mixed, system: 'as-written' };
  const flour = { name: 'egg', plural_name: 'eggs', quantity: 1, unit_abbreviation: null };

  it('uses plural_name when the quantity is not 1', () => {
    expect(displayIngredient(flour, dict, asWritten).text).toBe('1 egg');
    expect(displayIngredient({ ...flour, quantity: 2 }, dict, asWritten).text).toBe('2 eggs');
    expect(displayIngredient({ ...flour, quantity: 0.5 }, dict, asWritten).text).toBe('1/2 eggs');
  });

  it('shows no number for an empty quantity', () => {
    const salt = { name: 'salt', plural_name: 'salt', quantity: null, unit_abbreviation: null };
    expect(displayIngredient(salt, dict, asWritten)).toEqual({ name: 'salt', quantity: '', unit: '', text: 'salt' });
  });

  it('names count units in the singular or plural', () => {
    const garlic = { name: 'garlic', plural_name: 'garlic', quantity: 2, unit_abbreviation: 'clove' };
    expect(displayIngredient(garlic, dict, asWritten).text).toBe('2 cloves garlic');
    expect(displayIngredient({ ...garlic, quantity: 1 }, dict, asWritten).text).toBe('1 clove garlic');
  });

  it('converts, rounds metric amounts sensibly, and scales with servings', () => {
    const milk = { name: 'milk', plural_name: 'milk', quantity: 1, unit_abbreviation: 'cup' };
    expect(displayIngredient(milk, dict, { ...mixed, system: 'metric' }).text).toBe('235 ml milk');
    expect(displayIngredient({ ...milk, quantity: 1000, unit_abbreviation: 'ml' }, dict, { ...mixed, system: 'metric' }).text).toBe('1 l milk');
    expect(displayIngredient({ ...milk, quantity: 3, unit_abbreviation: 'tsp' }, dict, { ...mixed, system: 'american' }).text).toBe('1 tbsp milk');
    expect(displayIngredient(milk, dict, { ...mixed, system: 'as-written', servings: 6, baseServings: 4 }).text).toBe('1 1/2 cups milk');
    expect(displayIngredient(milk, dict, { ...decimals, system: 'as-written', servings: 6, baseServings: 4 }).text).toBe('1.5 cups milk');
    expect(displayIngredient(milk, dict, { ...improper, system: 'as-written', servings: 6, baseServings: 4 }).text).toBe('3/2 cups milk');
  });
});

describe('metric as cooks write it (issue 21 point 7)', () => {
  const metric: DisplayOptions = { ...mixed, system: 'metric' };
  const american: DisplayOptions = { ...mixed, system: 'american' };
  const asWritten: DisplayOptions = { ...mixed, system: 'as-written' };
  const line = (quantity: number, unit: string, options: DisplayOptions, more: Partial<Parameters<typeof displayIngredient>[0]> = {}) =>
    displayIngredient({ name: 'x', plural_name: 'x', quantity, unit_abbreviation: unit, ...more }, dict, options).text;

  it('counts spoons as 5 and 15 ml, never a fraction of a millilitre', () => {
    expect(line(1, 'tsp', metric)).toBe('5 ml x');
    expect(line(1, 'tbsp', metric)).toBe('15 ml x');
    expect(line(0.5, 'tsp', metric)).toBe('2.5 ml x');
    expect(line(0.125, 'tsp', metric)).toBe('0.6 ml x');
    expect(line(3, 'tbsp', metric)).toBe('45 ml x');
  });

  it('writes grams and millilitres whole from 10 up, one decimal below, kilograms and litres as decimals', () => {
    expect(line(5.2, 'kg', asWritten)).toBe('5.2 kg x');
    expect(line(5.2, 'kg', metric)).toBe('5.2 kg x');
    expect(line(1300, 'g', metric)).toBe('1.3 kg x');
    expect(line(2.5, 'dl', asWritten)).toBe('2.5 dl x');
    expect(line(12.34, 'g', asWritten)).toBe('12 g x');
    expect(line(7.25, 'g', asWritten)).toBe('7.3 g x');
    expect(line(1, 'lb', metric)).toBe('455 g x');
    expect(line(2, 'oz', metric)).toBe('57 g x');
  });

  it('keeps kitchen fractions for American volumes, and weighs ounces and pounds in tenths as a kitchen scale shows them', () => {
    expect(line(5, 'ml', american)).toBe('1 tsp x');
    expect(line(250, 'g', american)).toBe('8.8 oz x');
    expect(line(1, 'kg', american)).toBe('2.2 lb x');
    expect(line(28.35, 'g', american)).toBe('1 oz x');
    // As written, a recipe's own "1/2 lb" stays a fraction.
    expect(line(0.5, 'lb', asWritten)).toBe('1/2 lb x');
    expect(line(1.5, 'cup', asWritten)).toBe('1 1/2 cups x');
  });

  it('writes a unit whose abbreviation is its name in the plural when the amount is not 1', () => {
    expect(line(2, 'cup', asWritten)).toBe('2 cups x');
    expect(line(1, 'cup', asWritten)).toBe('1 cup x');
    expect(line(0.5, 'cup', asWritten)).toBe('1/2 cup x');
    expect(line(2, 'tbsp', asWritten)).toBe('2 tbsp x');
  });

  it('property: a metric line never shows a fraction, in any system, scaled or not', () => {
    const units = Object.entries(dict).filter(([, u]) => u.dimension !== 'count');
    fc.assert(
      fc.property(fc.constantFrom(...units), fc.double({ min: 0.01, max: 1e5, noNaN: true }), fc.integer({ min: 1, max: 40 }), ([abbreviation], q, servings) => {
        for (const system of ['metric', 'as-written'] as const) {
          const shown = displayIngredient({ name: 'x', plural_name: 'x', quantity: q, unit_abbreviation: abbreviation }, dict, { ...improper, system, servings, baseServings: 4 });
          if (dict[shown.unit as keyof typeof dict]?.system === 'metric') expect(shown.quantity).not.toMatch(/\//);
        }
      }),
    );
  });

  it('scales and converts both ends of a range', () => {
    expect(line(2, 'dl', asWritten, { quantity_max: 2.5 })).toBe('2-2.5 dl x');
    expect(line(2, 'cup', asWritten, { quantity_max: 3, servings: 8, baseServings: 4 } as never)).toBe('2-3 cups x');
    expect(displayIngredient({ name: 'x', plural_name: 'x', quantity: 2, quantity_max: 3, unit_abbreviation: 'cup' }, dict, { ...asWritten, servings: 8, baseServings: 4 }).text).toBe(
      '4-6 cups x',
    );
    expect(line(1, 'tsp', metric, { quantity_max: 2 })).toBe('5-10 ml x');
    expect(displayIngredient({ name: 'sprig', plural_name: 'sprigs', quantity: 4, quantity_max: 5, unit_abbreviation: 'sprig' }, dict, asWritten).text).toBe('4-5 sprigs sprigs');
  });

  it('scales both ends of a yield range', () => {
    expect(scaledYield(8, 10, 8)).toBe('8-10');
    expect(scaledYield(8, 10, 16)).toBe('16-20');
    expect(scaledYield(8, 10, 4)).toBe('4-5');
    expect(scaledYield(4, null, 6)).toBe('6');
  });
});

describe('parseQuantity with the fraction slash', () => {
  it('reads 1⁄4 and 1 1⁄2', () => {
    expect(parseQuantity('1⁄4')).toBe(0.25);
    expect(parseQuantity('1 1⁄2')).toBe(1.5);
  });
});
