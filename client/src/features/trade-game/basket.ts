import { lineValue, type IslandData, type IslandItem, type TradeLine } from '@site/contracts/trade-game';

export type Side = 'buy' | 'sell';
/** Amounts typed per line, keyed `buy:Wood` / `sell:Stone`; anything not a whole number counts as 0. */
export type Amounts = Record<string, string>;

export const lineKey = (side: Side, name: string) => `${side}:${name}`;

export function amountOf(amounts: Amounts, side: Side, name: string): number {
  const text = (amounts[lineKey(side, name)] ?? '').trim();
  return /^\d{1,6}$/.test(text) ? Number(text) : 0;
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
