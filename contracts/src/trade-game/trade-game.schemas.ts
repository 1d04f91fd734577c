import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { text } from '../text.ts';

/** The most units of one line, offer side or basket the server accepts at all (capacity comes on top). */
export const TRADE_MAX_AMOUNT = 100_000;

const islandName = text({ label: 'Island', max: 60, trim: true, min: 1 });
const resourceName = text({ label: 'Resource', max: 40, trim: true, min: 1 });
const amount = (label: string, min: number) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, min === 0 ? `${label} may not be negative` : `${label} must be at least ${min}`)
    .max(TRADE_MAX_AMOUNT, `${label} may be at most ${TRADE_MAX_AMOUNT}`);

export const islandInput = z.object({ island: islandName });
export type IslandInput = z.infer<typeof islandInput>;

/** One line of a basket: `buy` takes the item from the island's buy list, `sell` gives it to its sell list. */
export const tradeLine = z.object({
  side: z.enum(['buy', 'sell'], { error: 'Side must be buy or sell' }),
  name: resourceName,
  amount: amount('Amount', 0),
});
export type TradeLine = z.infer<typeof tradeLine>;

export const tradeInput = z.object({
  island: islandName,
  lines: z.array(tradeLine).max(50, 'A basket has at most 50 lines'),
});
export type TradeInput = z.infer<typeof tradeInput>;

export const techInput = z.object({ tech: text({ label: 'Technology', max: 60, trim: true, min: 1 }) });
export type TechInput = z.infer<typeof techInput>;

const offerSide = (label: string) => z.object({ name: resourceName, amount: amount(label, 1) });
export const offerInput = z.object({ give: offerSide('Amount offered'), want: offerSide('Amount wanted') });
export type OfferInput = z.infer<typeof offerInput>;

export const offerIdInput = z.object({ id: rowId('Offer must be a number') });
export type OfferIdInput = z.infer<typeof offerIdInput>;

/* ---------- what the server answers (field names as the documented /api paths read them) ---------- */

export type TradeResource = { name: string; img_src: string; amount: number };
export type ResourcesOutput = { rows: TradeResource[]; reset: boolean };
export type IslandsOutput = { islands: { island_name: string }[]; myIsland: string };
/** A missing price (null) means the island names the item without quoting it: its value counts as 0. */
export type IslandItem = { name: string; price: number | null; img_src: string };
export type IslandData = {
  island_name: string;
  accentColor: string;
  foregroundColor: string;
  menuColor: string;
  data: { buyList: IslandItem[]; sellList: IslandItem[] };
};
export type ResourceAmount = { name: string; amount: number };
export type TechRow = { name: string; effect: string; cost: ResourceAmount[]; owned: boolean };
export type TradeOffer = {
  id: number;
  seller: string;
  give: ResourceAmount;
  want: ResourceAmount;
  createdAt: string;
  mine: boolean;
};
export type OffersOutput = { open: TradeOffer[]; mine: TradeOffer[] };
export type TradeResult = { rows: TradeResource[]; island: IslandData; total: number };

/** A line's value: price times amount, a missing price counting as 0. */
export function lineValue(price: number | null | undefined, units: number): number {
  return (price ?? 0) * units;
}

export const tradeMessages = {
  unknownIsland: (name: string) => `There is no island called ${name}`,
  unknownTech: (name: string) => `There is no technology called ${name}`,
  unknownResource: (name: string) => `There is no resource called ${name}`,
  notOnList: (island: string, side: 'buy' | 'sell', name: string) =>
    side === 'buy' ? `${island} does not sell ${name}` : `${island} does not buy ${name}`,
  /** An island names some goods without a price: they count as 0 in the basket's total, but are not traded. */
  noPrice: (island: string, side: 'buy' | 'sell', name: string) =>
    side === 'buy' ? `${island} has no price for ${name}, so it cannot be bought here` : `${island} has no price for ${name}, so it cannot be sold here`,
  emptyBasket: 'Choose an amount on at least one line',
  overCapacity: (capacity: number, units: number) =>
    `Your hold carries ${capacity} units per trade; this basket moves ${units}`,
  /** One phrase per resource that would go below zero, joined into one message. */
  short: (name: string, needed: number, have: number) => `${name}: needs ${needed}, you have ${have}`,
  notEnough: (parts: string[]) => `Not enough ${parts.join('; ')}`,
  techOwned: (name: string) => `You already have ${name}`,
  sameResource: 'Offer one resource for a different one',
  offerGone: 'That offer is no longer open',
  ownOffer: 'You cannot accept your own offer',
  notYourOffer: 'Only the player who made an offer can withdraw it',
  tooManyOffers: (max: number) => `You may have at most ${max} open offers`,
};
