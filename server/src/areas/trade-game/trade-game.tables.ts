import type { ColumnType, Generated, Selectable } from 'kysely';

/** One row per player who has opened the game; deleted (with the rest of their data) by a reset. */
export interface TradePlayersTable {
  user_id: number;
  my_island: string;
  /** True until the player's resources are first read: get_resources answers it as `reset`. */
  fresh: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, never, never>;
}

export interface TradeResourcesTable {
  user_id: number;
  resource: string;
  /** Never below zero: a check constraint backs the service's rule. */
  amount: number;
}

/** Supply-and-demand pressure of one item on one island for one player (README: price rule). */
export interface TradePricesTable {
  user_id: number;
  island: string;
  item: string;
  pressure: number;
  updated_at: Date;
}

export interface TradeTechsTable {
  user_id: number;
  tech: string;
  bought_at: ColumnType<Date, never, never>;
}

export type OfferStatus = 'open' | 'accepted' | 'withdrawn';

export interface TradeOffersTable {
  id: Generated<number>;
  seller_id: number;
  give_resource: string;
  give_amount: number;
  want_resource: string;
  want_amount: number;
  status: ColumnType<OfferStatus, OfferStatus | undefined, OfferStatus>;
  buyer_id: number | null;
  created_at: ColumnType<Date, never, never>;
  closed_at: Date | null;
}

export interface TradeGameTables {
  trade_players: TradePlayersTable;
  trade_resources: TradeResourcesTable;
  trade_prices: TradePricesTable;
  trade_techs: TradeTechsTable;
  trade_offers: TradeOffersTable;
}

export type TradeOfferRecord = Selectable<TradeOffersTable>;
export type TradePriceRecord = Selectable<TradePricesTable>;
