import { lineValue, TRADE_MAX_AMOUNT, tradeMessages, type IslandData, type IslandItem, type TradeLine } from '@site/contracts/trade-game';
import { parseNumber, type NumberRules } from '../../components/number.ts';

export type Side = 'buy' | 'sell';
/** Amounts typed per line, keyed `buy:Wood` / `sell:Stone`; a line whose amount is refused counts as 0 until it is fixed. */
export type Amounts = Record<string, string>;

export const lineKey = (side: Side, name: string) => `${side}:${name}`;

/** Goods come in whole units (the server refuses a fraction the same way). */
export const amountRules = (side: Side, name: string): NumberRules => ({
  label: `${side === 'buy' ? 'Buy' : 'Sell'} ${name} amount`,
  whole: true,
  min: 0,
  max: TRADE_MAX_AMOUNT,
});

export function amountOf(amounts: Amounts, side: Side, name: string): number {
  const parsed = parseNumber(amounts[lineKey(side, name)] ?? '', amountRules(side, name));
  return parsed.ok ? (parsed.value ?? 0) : 0;
}

/**
 * The first line the basket cannot take as typed ('2,5' units), or an amount on a good the island
 * names without a price (the server refuses to trade it, in the same words); null when all is well.
 * The Trade button waits for it.
 */
export function basketProblem(island: IslandData, amounts: Amounts): string | null {
  for (const [side, items] of [['buy', island.data.buyList], ['sell', island.data.sellList]] as const) {
    for (const item of items) {
      const parsed = parseNumber(amounts[lineKey(side, item.name)] ?? '', amountRules(side, item.name));
      if (!parsed.ok) return parsed.message;
      if (item.price === null && (parsed.value ?? 0) > 0) return tradeMessages.noPrice(island.island_name, side, item.name);
    }
  }
  return null;
}

export type Totals = { buy: number; sell: number; net: number; units: number };

/** What the basket costs and earns in Gold at the quoted prices (a missing price counts as 0). */
export function totals(island: IslandData, amounts: Amounts): Totals {
  const sum = (items: IslandItem[], side: Side) => items.reduce((total, item) => total + lineValue(item.price, amountOf(amounts, side, item.name)), 0);
  const count = (items: IslandItem[], side: Side) => items.reduce((total, item) => total + amountOf(amounts, side, item.name), 0);
  const buy = sum(island.data.buyList, 'buy');
  const sell = sum(island.data.sellList, 'sell');
  return { buy, sell, net: sell - buy, units: count(island.data.buyList, 'buy') + count(island.data.sellList, 'sell') };
}

/** The lines to send: every line with an amount above 0. */
export function basketLines(island: IslandData, amounts: Amounts): TradeLine[] {
  const lines = (items: IslandItem[], side: Side) =>
    items.map((item) => ({ side, name: item.name, amount: amountOf(amounts, side, item.name) })).filter((line) => line.amount > 0);
  return [...lines(island.data.buyList, 'buy'), ...lines(island.data.sellList, 'sell')];
}

export const signed = (value: number) => (value > 0 ? `+${value}` : String(value));
