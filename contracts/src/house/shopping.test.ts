import { describe, expect, it } from 'vitest';
import { KITCHEN_UNITS } from '../recipes/units.ts';
import { addAmounts, ceilFraction, ingredientKey, planShopping, shoppingName, readAmount, sameIngredient, writeAmount, type ShoppingLine } from './shopping.ts';

const dict = KITCHEN_UNITS;
const line = (name: string, pluralName: string, quantity: number | null, unit: string | null): ShoppingLine => ({ name, pluralName, quantity, unit });

describe('recipe to House To Get: the merge rules', () => {
  it('matches names case and plural insensitively, by name or plural name', () => {
    expect(sameIngredient('Eggs', line('egg', 'eggs', 2, null))).toBe(true);
    expect(sameIngredient('egg', line('Egg', 'Eggs', 2, null))).toBe(true);
    expect(sameIngredient('  TOMATOES ', line('tomato', 'tomatoes', 1, null))).toBe(true);
    expect(sameIngredient('flour', line('flour', '', 200, 'g'))).toBe(true);
    expect(sameIngredient('Egg noodles', line('egg', 'eggs', 2, null))).toBe(false);
  });

  it('reads back what the list stores, and what people type', () => {
    expect(readAmount('700 g', dict)).toEqual({ quantity: 700, unit: 'g' });
    expect(readAmount('1 1/2 cup', dict)).toEqual({ quantity: 1.5, unit: 'cup' });
    expect(readAmount('2 cloves', dict)).toEqual({ quantity: 2, unit: 'clove' });
    expect(readAmount('5', dict)).toEqual({ quantity: 5, unit: null });
    expect(readAmount(null, dict)).toEqual({ quantity: null, unit: null });
    expect(readAmount('a few', dict)).toBeNull();
    expect(readAmount('2 boxes', dict)).toBeNull();
  });

  it('adds counts, masses with masses and volumes with volumes, in a sensible unit', () => {
    expect(addAmounts({ quantity: 2, unit: null }, { quantity: 3, unit: null }, dict)).toEqual({ quantity: 5, unit: null });
    expect(addAmounts({ quantity: 200, unit: 'g' }, { quantity: 0.5, unit: 'kg' }, dict)).toEqual({ quantity: 700, unit: 'g' });
    expect(addAmounts({ quantity: 600, unit: 'g' }, { quantity: 0.5, unit: 'kg' }, dict)).toEqual({ quantity: 1100, unit: 'g' });
    expect(addAmounts({ quantity: 2, unit: 'clove' }, { quantity: 1, unit: 'clove' }, dict)).toEqual({ quantity: 3, unit: 'clove' });
    expect(writeAmount(addAmounts({ quantity: 1, unit: 'cup' }, { quantity: 8, unit: 'tbsp' }, dict)!, dict)).toBe('1 1/2 cups');
  });

  it('never adds across dimensions or different count units', () => {
    expect(addAmounts({ quantity: 200, unit: 'g' }, { quantity: 1, unit: 'cup' }, dict)).toBeNull();
    expect(addAmounts({ quantity: 1, unit: 'can' }, { quantity: 200, unit: 'g' }, dict)).toBeNull();
    expect(addAmounts({ quantity: 1, unit: 'can' }, { quantity: 2, unit: 'clove' }, dict)).toBeNull();
    expect(addAmounts({ quantity: 2, unit: null }, { quantity: 2, unit: 'g' }, dict)).toBeNull();
  });

  it('plans updates into matching lines and new lines for the rest, losing nothing', () => {
    const list = [
      { id: 1, task: 'Eggs', quantity: '2' },
      { id: 2, task: 'flour', quantity: '200 g' },
      { id: 3, task: 'Tomatoes', quantity: '1 can' },
      { id: 4, task: 'Salt', quantity: null },
      { id: 5, task: 'Milk', quantity: 'plenty' },
    ];
    const plan = planShopping(
      list,
      [
        line('egg', 'eggs', 3, null),
        line('flour', 'flour', 0.5, 'kg'),
        line('tomato', 'tomatoes', 400, 'g'),
        line('salt', 'salt', null, null),
        line('milk', 'milk', 2, 'dl'),
        line('butter', 'butter', 1, 'cup'),
        line('Egg', 'Eggs', 1, null),
      ],
      'metric',
      dict,
    );
    expect(plan.updates).toEqual([
      { id: 1, quantity: '6' },
      { id: 2, quantity: '700 g' },
    ]);
    expect(plan.inserts).toEqual([
      { task: 'tomatoes', quantity: '400 g' },
      { task: 'milk', quantity: '2 dl' },
      { task: 'butter', quantity: '237 ml' },
    ]);
  });

  it('merges repeated lines of one recipe into one new line', () => {
    const plan = planShopping([], [line('onion', 'onions', 1, null), line('onion', 'onions', 2, null), line('lemon', 'lemons', 1, null)], 'as-written', dict);
    expect(plan).toEqual({ updates: [], inserts: [{ task: 'onions', quantity: '3' }, { task: 'lemon', quantity: '1' }] });
  });

  it('keeps the exact sum and rounds only for display, up (issue 50: 2 + 1 + 1 tbsp + 3 tbsp typed = 7 tbsp, never 3/8 cup)', () => {
    const week = [line('olive oil', 'olive oil', 2, 'tbsp'), line('olive oil', 'olive oil', 1, 'tbsp'), line('olive oil', 'olive oil', 1, 'tbsp')];
    expect(planShopping([{ id: 1, task: 'olive oil', quantity: '3 tbsp' }], week, 'american', dict).updates).toEqual([{ id: 1, quantity: '7 tbsp' }]);
    expect(planShopping([{ id: 1, task: 'olive oil', quantity: '7 tbsp' }], [line('olive oil', 'olive oil', 1, 'tbsp')], 'american', dict).updates).toEqual([{ id: 1, quantity: '8 tbsp' }]);
    expect(planShopping([{ id: 1, task: 'olive oil', quantity: '1/4 cup' }], [line('olive oil', 'olive oil', 1, 'tbsp')], 'american', dict).updates).toEqual([{ id: 1, quantity: '1/3 cup' }]);
    expect(writeAmount({ quantity: 7.2, unit: 'tbsp' }, dict)).toBe('7 1/4 tbsp');
    expect(writeAmount({ quantity: 100.2, unit: 'g' }, dict)).toBe('101 g');
    expect(ceilFraction(0.3)).toBe(1 / 3);
    expect(ceilFraction(2.9)).toBe(3);
  });

  it('keeps cups cups', () => {
    expect(planShopping([], [line('red lentils', 'red lentils', 5, 'cup')], 'american', dict).inserts).toEqual([{ task: 'red lentils', quantity: '5 cups' }]);
    expect(planShopping([{ id: 1, task: 'red lentils', quantity: '3 cups' }], [line('red lentils', 'red lentils', 2, 'cup')], 'american', dict).updates).toEqual([{ id: 1, quantity: '5 cups' }]);
  });

  it('merges one ingredient however worded, and a To Get line keeps no preparation', () => {
    expect(shoppingName('yellow or red pepper, deseeded and cut into roughly 1.5cm/⅝in chunks')).toBe('yellow or red pepper');
    expect(ingredientKey('onion, finely chopped')).toBe('onion');
    expect(ingredientKey('2 Onions')).toBe('onion');
    const plan = planShopping(
      [],
      [line('onion, finely chopped', 'onion, finely chopped', 1, null), line('onions', 'onions', 2, null), line('onion', 'onion', null, null), line('yellow or red pepper, deseeded and cut into roughly 1.5cm/⅝in chunks', 'yellow or red pepper, deseeded', 0.5, null)],
      'as-written',
      dict,
    );
    expect(plan.inserts).toEqual([
      { task: 'onions', quantity: '3' },
      { task: 'yellow or red pepper', quantity: '1/2' },
    ]);
  });
});
