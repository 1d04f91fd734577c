import { describe, expect, it } from 'vitest';
import type { IslandData } from '@site/contracts/trade-game';
import { basketLines, basketProblem, totals } from './basket.ts';

const island: IslandData = {
  island_name: 'Palm Harbor',
  accentColor: '#000000',
  foregroundColor: '#ffffff',
  menuColor: '#111111',
  data: {
    buyList: [{ name: 'Wood', price: 4, img_src: '' }, { name: 'Grain', price: null, img_src: '' }],
    sellList: [{ name: 'Stone', price: 6, img_src: '' }],
  },
};

describe('basket', () => {
  it('values each line at price times amount, a missing price as 0, and ignores what is not a whole number', () => {
    const amounts = { 'buy:Wood': '5', 'buy:Grain': '3', 'sell:Stone': '2', 'sell:Nothing': '9' };
    expect(totals(island, amounts)).toEqual({ buy: 20, sell: 12, net: -8, units: 10 });
    expect(totals(island, { 'buy:Wood': '-2', 'sell:Stone': 'x' })).toEqual({ buy: 0, sell: 0, net: 0, units: 0 });
    expect(basketLines(island, amounts)).toEqual([
      { side: 'buy', name: 'Wood', amount: 5 },
      { side: 'buy', name: 'Grain', amount: 3 },
      { side: 'sell', name: 'Stone', amount: 2 },
    ]);
  });

  it('refuses a decimal amount with a message instead of reading 2,5 as 25', () => {
    expect(totals(island, { 'buy:Wood': '2,5' }).buy).toBe(0);
    expect(basketLines(island, { 'buy:Wood': '2,5' })).toEqual([]);
    expect(basketProblem(island, { 'buy:Wood': '2,5', 'sell:Stone': '1' })).toBe('Buy Wood amount must be a whole number from 0 to 100000, with no decimals');
    expect(basketProblem(island, { 'buy:Wood': '25', 'sell:Stone': '' })).toBeNull();
  });

  it('takes an amount on a good with no price, and says at once that the island does not trade it', () => {
    expect(basketProblem(island, { 'buy:Grain': '3' })).toBe('Palm Harbor has no price for Grain, so it cannot be bought here');
    expect(basketProblem(island, { 'buy:Grain': '0' })).toBeNull();
  });
});
