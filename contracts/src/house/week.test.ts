import { describe, expect, it } from 'vitest';
import { parseIngredientLine } from '../recipes/jsonld.ts';
import { convertQuantity, type UnitDict } from '../recipes/quantities.ts';
import { KITCHEN_UNITS } from '../recipes/units.ts';
import week from './fixtures/week-recipes.json' with { type: 'json' };
import { ingredientKey, planShopping, readAmount, type ShoppingLine } from './shopping.ts';

const dict: UnitDict = KITCHEN_UNITS;

/** The week's lines summed per ingredient and unit, as plan.shop does, then planned onto an empty To Get list. */
function shopWeek() {
  const totals = new Map<string, ShoppingLine & { parts: number[] }>();
  for (const lines of Object.values(week.recipes)) {
    for (const text of lines) {
      const i = parseIngredientLine(text, dict);
      const key = `${ingredientKey(i.name)}\u0000${i.unit_abbreviation ?? ''}`;
      const total = totals.get(key) ?? { name: i.name, pluralName: i.plural_name, quantity: null, unit: i.unit_abbreviation, parts: [] };
      if (i.quantity !== null) {
        total.quantity = (total.quantity ?? 0) + i.quantity;
        total.parts.push(i.quantity);
      }
      totals.set(key, total);
    }
  }
  return { totals: [...totals.values()], plan: planShopping([], [...totals.values()], 'american', dict) };
}

describe('a week of four real-world recipes to To Get', () => {
  it('never writes a merged amount below the sum of its parts, and one line per ingredient', () => {
    const { totals, plan } = shopWeek();
    const perIngredient = new Map<string, number>();
    for (const line of plan.inserts) perIngredient.set(ingredientKey(line.task), (perIngredient.get(ingredientKey(line.task)) ?? 0) + 1);
    for (const line of plan.inserts) {
      const parts = totals.filter((t) => ingredientKey(t.name) === ingredientKey(line.task));
      const written = readAmount(line.quantity, dict);
      expect(written, `${line.task}: ${line.quantity}`).not.toBeNull();
      const sum = parts.reduce((all, t) => {
        if (t.quantity === null) return all;
        if (t.unit === null || written!.unit === null) return all + t.quantity;
        return all + convertQuantity(t.quantity, dict[t.unit]!, dict[written!.unit]!);
      }, 0);
      if (written!.quantity !== null) expect(written!.quantity, `${line.task}: ${line.quantity}`).toBeGreaterThanOrEqual(sum - 1e-9);
    }
    expect(Object.fromEntries([...perIngredient].filter(([, n]) => n > 1))).toEqual({});
    expect(plan.inserts.length).toBe(16);
    expect(plan.inserts.find((l) => l.task === 'olive oil')).toEqual({ task: 'olive oil', quantity: '11 tbsp' });
    expect(plan.inserts.find((l) => l.task === 'onions')).toEqual({ task: 'onions', quantity: '4' });
    expect(plan.inserts.find((l) => l.task === 'yellow or red pepper')).toEqual({ task: 'yellow or red pepper', quantity: '1/2' });
    expect(plan.inserts.find((l) => l.task === 'red lentils')).toEqual({ task: 'red lentils', quantity: '5 cups' });
  });
});
