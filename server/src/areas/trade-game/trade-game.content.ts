/**
 * The trade game's content: resources, islands and technologies, in one file. Images live in
 * client/public/trade-game/ and are served with the built client. Prices are whole Gold per unit; an
 * item without a price is named by the island but not quoted (its value counts as 0).
 */

export type ContentItem = { name: string; price?: number };
export type ContentIsland = {
  name: string;
  accentColor: string;
  foregroundColor: string;
  menuColor: string;
  /** What the player can buy here (pays Gold, gets the item). */
  buyList: ContentItem[];
  /** What the player can sell here (gives the item, gets Gold). */
  sellList: ContentItem[];
};
export type TechEffect =
  | { kind: 'buyDiscount'; percent: number }
  | { kind: 'sellBonus'; percent: number }
  | { kind: 'capacity'; units: number };
export type ContentTech = { name: string; effect: TechEffect; cost: { name: string; amount: number }[] };

/** The resource every price is paid in. */
export const CURRENCY = 'Gold';
/** Units one basket may move before any technology. */
export const BASE_CAPACITY = 40;
/** Open offers one player may have at once. */
export const MAX_OPEN_OFFERS = 10;

export const content: Content = {
  resources: [
    { name: 'Gold', image: '/trade-game/gold.svg', start: 100 },
    { name: 'Wood', image: '/trade-game/wood.svg', start: 20 },
    { name: 'Stone', image: '/trade-game/stone.svg', start: 10 },
    { name: 'Fish', image: '/trade-game/fish.svg', start: 15 },
    { name: 'Grain', image: '/trade-game/grain.svg', start: 10 },
    { name: 'Iron', image: '/trade-game/iron.svg', start: 0 },
  ],
  islands: [
    {
      name: 'Palm Harbor',
      accentColor: '#2e8b57',
      foregroundColor: '#f0fff0',
      menuColor: '#0b3d2e',
      buyList: [{ name: 'Wood', price: 4 }, { name: 'Fish', price: 2 }, { name: 'Grain', price: 3 }],
      sellList: [{ name: 'Stone', price: 6 }, { name: 'Iron', price: 14 }, { name: 'Fish' }],
    },
    {
      name: 'Granite Reach',
      accentColor: '#8a8f98',
      foregroundColor: '#f4f4f6',
      menuColor: '#2b2d33',
      buyList: [{ name: 'Stone', price: 3 }, { name: 'Iron', price: 10 }],
      sellList: [{ name: 'Wood', price: 6 }, { name: 'Grain', price: 5 }, { name: 'Fish', price: 4 }],
    },
    {
      name: 'Amber Shoals',
      accentColor: '#d98e04',
      foregroundColor: '#fff8e7',
      menuColor: '#4a2f00',
      buyList: [{ name: 'Grain', price: 2 }, { name: 'Fish', price: 3 }, { name: 'Wood' }],
      sellList: [{ name: 'Iron', price: 16 }, { name: 'Stone', price: 5 }, { name: 'Wood', price: 5 }],
    },
    {
      name: 'Coral Keys',
      accentColor: '#e0607e',
      foregroundColor: '#fff0f3',
      menuColor: '#4d1624',
      buyList: [{ name: 'Fish', price: 1 }, { name: 'Wood', price: 5 }, { name: 'Iron', price: 12 }],
      sellList: [{ name: 'Grain', price: 6 }, { name: 'Stone', price: 7 }],
    },
  ],
  techs: [
    {
      name: 'Trade Ledger',
      effect: { kind: 'buyDiscount', percent: 10 },
      cost: [{ name: 'Gold', amount: 60 }, { name: 'Wood', amount: 10 }],
    },
    {
      name: 'Silver Tongue',
      effect: { kind: 'sellBonus', percent: 10 },
      cost: [{ name: 'Gold', amount: 80 }, { name: 'Fish', amount: 10 }],
    },
    {
      name: 'Deep Hold',
      effect: { kind: 'capacity', units: 60 },
      cost: [{ name: 'Wood', amount: 30 }, { name: 'Iron', amount: 5 }],
    },
  ],
};

export type Content = {
  resources: readonly { name: string; image: string; start: number }[];
  islands: readonly ContentIsland[];
  techs: readonly ContentTech[];
};
