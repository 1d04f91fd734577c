import {
  tradeMessages,
  type IslandData,
  type IslandsOutput,
  type OfferIdInput,
  type OfferInput,
  type OffersOutput,
  type ResourceAmount,
  type ResourcesOutput,
  type TechInput,
  type TechRow,
  type TradeInput,
  type TradeOffer,
  type TradeResource,
  type TradeResult,
} from '@site/contracts';
import type { Executor } from '../../db/database.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { BASE_CAPACITY, CURRENCY, MAX_OPEN_OFFERS, content, type ContentIsland, type ContentTech, type TechEffect } from './trade-game.content.ts';
import { clampPressure, driftedPressure, quote, type PriceModifiers } from './trade-game.prices.ts';
import * as repo from './trade-game.repository.ts';
import type { TradeOfferRecord } from './trade-game.tables.ts';

/** Every call takes the time it happens at, so tests can move the clock for the price drift. */
type Now = { now?: number };

const resourceImage = new Map(content.resources.map((r) => [r.name, r.image]));
const islandByName = new Map(content.islands.map((i) => [i.name, i]));
const techByName = new Map(content.techs.map((t) => [t.name, t]));

/** The island a new player starts on: the islands taken in turn by account number. */
export function homeIslandOf(userId: number): string {
  const islands = content.islands;
  return (islands[(userId - 1) % islands.length] ?? islands[0])!.name;
}

/** Creates the player's game on first use (and after a reset): their island and starting resources. */
async function ensurePlayer(db: Executor, user: SessionUser): Promise<void> {
  const created = await repo.insertPlayer(db, user.id, homeIslandOf(user.id));
  if (created) {
    await repo.insertResources(
      db,
      content.resources.map((r) => ({ user_id: user.id, resource: r.name, amount: r.start })),
    );
  }
}

function resourceRows(amounts: Map<string, number>): TradeResource[] {
  return content.resources.map((r) => ({ name: r.name, img_src: r.image, amount: amounts.get(r.name) ?? 0 }));
}

async function amountsOf(db: Executor, userId: number): Promise<Map<string, number>> {
  return new Map((await repo.listResources(db, userId)).map((r) => [r.resource, r.amount]));
}

function findIsland(name: string): ContentIsland {
  const island = islandByName.get(name);
  if (!island) throw new AppError('NOT_FOUND', tradeMessages.unknownIsland(name));
  return island;
}

function assertResource(name: string): void {
  if (!resourceImage.has(name)) throw new AppError('BAD_REQUEST', tradeMessages.unknownResource(name));
}

type Bonuses = PriceModifiers & { capacity: number };

function bonusesOf(techs: Iterable<string>): Bonuses {
  const bonuses: Bonuses = { buyDiscount: 0, sellBonus: 0, capacity: BASE_CAPACITY };
  for (const name of techs) {
    const effect = techByName.get(name)?.effect;
    if (effect?.kind === 'buyDiscount') bonuses.buyDiscount += effect.percent;
    if (effect?.kind === 'sellBonus') bonuses.sellBonus += effect.percent;
    if (effect?.kind === 'capacity') bonuses.capacity += effect.units;
  }
  return bonuses;
}

async function bonusesFor(db: Executor, userId: number): Promise<Bonuses> {
  return bonusesOf((await repo.listTechs(db, userId)).map((t) => t.tech));
}

/** The pressure of each item on an island for this player, drifted to `now`. */
async function pressuresAt(db: Executor, userId: number, island: string, now: number): Promise<Map<string, number>> {
  const rows = await repo.listPrices(db, userId, island);
  return new Map(rows.map((r) => [r.item, driftedPressure(r.pressure, r.updated_at, now)]));
}

function islandData(island: ContentIsland, pressures: Map<string, number>, mods: PriceModifiers): IslandData {
  const list = (items: ContentIsland['buyList'], side: 'buy' | 'sell') =>
    items.map((item) => ({
      name: item.name,
      price: quote(item.price, pressures.get(item.name) ?? 0, side, mods),
      img_src: resourceImage.get(item.name) ?? '',
    }));
  return {
    island_name: island.name,
    accentColor: island.accentColor,
    foregroundColor: island.foregroundColor,
    menuColor: island.menuColor,
    data: { buyList: list(island.buyList, 'buy'), sellList: list(island.sellList, 'sell') },
  };
}

/* ---------- reading ---------- */

/** Only reads (a query): a player without a game yet is shown the island their game will start on. */
export async function islands(deps: AppDeps, user: SessionUser): Promise<IslandsOutput> {
  const player = await repo.findPlayer(deps.db, user.id);
  return { islands: content.islands.map((i) => ({ island_name: i.name })), myIsland: player?.my_island ?? homeIslandOf(user.id) };
}

/**
 * `reset` is true the first time a fresh game (new player, or after a reset) is read. It starts the
 * game and marks it seen, so it is a mutation (no query changes state).
 */
export async function resources(deps: AppDeps, user: SessionUser): Promise<ResourcesOutput> {
  return deps.db.transaction().execute(async (trx) => {
    await ensurePlayer(trx, user);
    const player = await repo.findPlayer(trx, user.id);
    if (player?.fresh) await repo.markSeen(trx, user.id);
    return { rows: resourceRows(await amountsOf(trx, user.id)), reset: player?.fresh ?? true };
  });
}

export async function island(deps: AppDeps, user: SessionUser, input: { island: string }, opts: Now = {}): Promise<IslandData> {
  const found = findIsland(input.island);
  const now = opts.now ?? Date.now();
  return islandData(found, await pressuresAt(deps.db, user.id, found.name, now), await bonusesFor(deps.db, user.id));
}

/* ---------- trading with an island ---------- */

/**
 * Applies a whole basket at the prices quoted when it runs, or nothing: the player's resources are
 * locked for the transaction, every line is checked, and a basket that would take anything below
 * zero is refused with a message naming each resource that is short.
 */
export async function trade(deps: AppDeps, user: SessionUser, input: TradeInput, opts: Now = {}): Promise<TradeResult> {
  const found = findIsland(input.island);
  const lines = input.lines.filter((line) => line.amount > 0);
  if (lines.length === 0) throw new AppError('BAD_REQUEST', tradeMessages.emptyBasket);
  for (const line of lines) {
    const list = line.side === 'buy' ? found.buyList : found.sellList;
    const item = list.find((listed) => listed.name === line.name);
    if (!item) throw new AppError('BAD_REQUEST', tradeMessages.notOnList(found.name, line.side, line.name));
    // Goods for nothing either way: the spec's 0 is for the basket's total, not a trade.
    if (item.price === undefined) throw new AppError('BAD_REQUEST', tradeMessages.noPrice(found.name, line.side, line.name));
  }
  const now = opts.now ?? Date.now();
  return deps.db.transaction().execute(async (trx) => {
    await ensurePlayer(trx, user);
    const locked = await repo.lockResources(trx, [user.id]);
    const bonuses = await bonusesFor(trx, user.id);
    const units = lines.reduce((sum, line) => sum + line.amount, 0);
    if (units > bonuses.capacity) throw new AppError('BAD_REQUEST', tradeMessages.overCapacity(bonuses.capacity, units));

    const pressures = await pressuresAt(trx, user.id, found.name, now);
    const have = new Map(locked.map((r) => [r.resource, r.amount]));
    const after = new Map(have);
    const spent = new Map<string, number>();
    const change = (name: string, by: number) => {
      after.set(name, (after.get(name) ?? 0) + by);
      if (by < 0) spent.set(name, (spent.get(name) ?? 0) - by);
    };
    const pressureChange = new Map<string, number>();
    let total = 0;
    for (const line of lines) {
      const list = line.side === 'buy' ? found.buyList : found.sellList;
      const base = list.find((item) => item.name === line.name)?.price;
      const price = quote(base, pressures.get(line.name) ?? 0, line.side, bonuses) ?? 0;
      const value = price * line.amount;
      const sign = line.side === 'buy' ? 1 : -1;
      change(line.name, sign * line.amount);
      change(CURRENCY, -sign * value);
      total += -sign * value;
      pressureChange.set(line.name, (pressureChange.get(line.name) ?? 0) + sign * line.amount);
    }
    const short = content.resources
      .filter((r) => (after.get(r.name) ?? 0) < 0)
      .map((r) => tradeMessages.short(r.name, spent.get(r.name) ?? 0, have.get(r.name) ?? 0));
    if (short.length > 0) throw new AppError('BAD_REQUEST', tradeMessages.notEnough(short));

    for (const [name, amount] of after) if (amount !== have.get(name)) await repo.setAmount(trx, user.id, name, amount);
    for (const [item, by] of pressureChange) {
      const pressure = clampPressure((pressures.get(item) ?? 0) + by);
      pressures.set(item, pressure);
      await repo.savePressure(trx, { user_id: user.id, island: found.name, item, pressure, updated_at: new Date(now) });
    }
    return { rows: resourceRows(after), island: islandData(found, pressures, bonuses), total };
  });
}

/* ---------- technologies ---------- */

export function describeEffect(effect: TechEffect): string {
  switch (effect.kind) {
    case 'buyDiscount':
      return `Buy prices ${effect.percent}% lower on every island`;
    case 'sellBonus':
      return `Sell prices ${effect.percent}% higher on every island`;
    case 'capacity':
      return `Your hold carries ${effect.units} more units per trade`;
  }
}

const techRow = (tech: ContentTech, owned: Set<string>): TechRow => ({
  name: tech.name,
  effect: describeEffect(tech.effect),
  cost: tech.cost.map((c) => ({ name: c.name, amount: c.amount })),
  owned: owned.has(tech.name),
});

export async function techs(deps: AppDeps, user: SessionUser): Promise<TechRow[]> {
  const owned = new Set((await repo.listTechs(deps.db, user.id)).map((t) => t.tech));
  return content.techs.map((t) => techRow(t, owned));
}

/** Pays the cost and records the technology, once; all or nothing like a basket. */
export async function buyTech(deps: AppDeps, user: SessionUser, input: TechInput): Promise<{ techs: TechRow[]; rows: TradeResource[] }> {
  const tech = techByName.get(input.tech);
  if (!tech) throw new AppError('NOT_FOUND', tradeMessages.unknownTech(input.tech));
  return deps.db.transaction().execute(async (trx) => {
    await ensurePlayer(trx, user);
    const locked = await repo.lockResources(trx, [user.id]);
    if (!(await repo.insertTech(trx, user.id, tech.name))) throw new AppError('CONFLICT', tradeMessages.techOwned(tech.name));
    const have = new Map(locked.map((r) => [r.resource, r.amount]));
    const short = tech.cost
      .filter((c) => (have.get(c.name) ?? 0) < c.amount)
      .map((c) => tradeMessages.short(c.name, c.amount, have.get(c.name) ?? 0));
    if (short.length > 0) throw new AppError('BAD_REQUEST', tradeMessages.notEnough(short));
    for (const c of tech.cost) {
      const left = (have.get(c.name) ?? 0) - c.amount;
      have.set(c.name, left);
      await repo.setAmount(trx, user.id, c.name, left);
    }
    const owned = new Set((await repo.listTechs(trx, user.id)).map((t) => t.tech));
    return { techs: content.techs.map((t) => techRow(t, owned)), rows: resourceRows(have) };
  });
}

/* ---------- offers between players ---------- */

const offerOf = (row: TradeOfferRecord & { seller_name: string }, viewerId: number): TradeOffer => ({
  id: row.id,
  seller: row.seller_name,
  give: { name: row.give_resource, amount: row.give_amount },
  want: { name: row.want_resource, amount: row.want_amount },
  createdAt: new Date(row.created_at).toISOString(),
  mine: row.seller_id === viewerId,
});

export async function offers(deps: AppDeps, user: SessionUser): Promise<OffersOutput> {
  const rows = (await repo.listOpenOffers(deps.db, 200)).map((row) => offerOf(row, user.id));
  return { open: rows.filter((o) => !o.mine), mine: rows.filter((o) => o.mine) };
}

function shortOf(have: Map<string, number>, need: ResourceAmount): string | null {
  const held = have.get(need.name) ?? 0;
  return held < need.amount ? tradeMessages.short(need.name, need.amount, held) : null;
}

/** Puts the offered resources aside (escrow) until the offer is accepted or withdrawn. */
export async function makeOffer(deps: AppDeps, user: SessionUser, input: OfferInput): Promise<TradeOffer> {
  assertResource(input.give.name);
  assertResource(input.want.name);
  if (input.give.name === input.want.name) throw new AppError('BAD_REQUEST', tradeMessages.sameResource);
  return deps.db.transaction().execute(async (trx) => {
    await ensurePlayer(trx, user);
    const have = new Map((await repo.lockResources(trx, [user.id])).map((r) => [r.resource, r.amount]));
    if ((await repo.countOpenOffers(trx, user.id)) >= MAX_OPEN_OFFERS) {
      throw new AppError('BAD_REQUEST', tradeMessages.tooManyOffers(MAX_OPEN_OFFERS));
    }
    const short = shortOf(have, input.give);
    if (short) throw new AppError('BAD_REQUEST', tradeMessages.notEnough([short]));
    await repo.setAmount(trx, user.id, input.give.name, (have.get(input.give.name) ?? 0) - input.give.amount);
    const row = await repo.insertOffer(trx, {
      seller_id: user.id,
      give_resource: input.give.name,
      give_amount: input.give.amount,
      want_resource: input.want.name,
      want_amount: input.want.amount,
    });
    return offerOf({ ...row, seller_name: user.name }, user.id);
  });
}

/**
 * Exchanges exactly once: the conditional update from open to accepted decides between two players
 * accepting at the same moment (the second finds it closed); both players' resources are then locked
 * in a fixed order, and a buyer without enough rolls the whole thing back, leaving the offer open.
 */
export async function acceptOffer(deps: AppDeps, user: SessionUser, input: OfferIdInput): Promise<{ rows: TradeResource[] }> {
  return deps.db.transaction().execute(async (trx) => {
    await ensurePlayer(trx, user);
    const offer = await repo.closeOffer(trx, input.id, 'accepted', { buyerId: user.id });
    if (!offer) {
      const existing = await repo.findOffer(trx, input.id);
      if (existing?.status === 'open' && existing.seller_id === user.id) throw new AppError('BAD_REQUEST', tradeMessages.ownOffer);
      throw new AppError('CONFLICT', tradeMessages.offerGone);
    }
    const locked = await repo.lockResources(trx, [user.id, offer.seller_id].sort((a, b) => a - b));
    const mine = new Map(locked.filter((r) => r.user_id === user.id).map((r) => [r.resource, r.amount]));
    const theirs = new Map(locked.filter((r) => r.user_id === offer.seller_id).map((r) => [r.resource, r.amount]));
    const short = shortOf(mine, { name: offer.want_resource, amount: offer.want_amount });
    if (short) throw new AppError('BAD_REQUEST', tradeMessages.notEnough([short]));
    const add = async (amounts: Map<string, number>, userId: number, name: string, by: number) => {
      const next = (amounts.get(name) ?? 0) + by;
      amounts.set(name, next);
      await repo.setAmount(trx, userId, name, next);
    };
    await add(mine, user.id, offer.want_resource, -offer.want_amount);
    await add(mine, user.id, offer.give_resource, offer.give_amount);
    await add(theirs, offer.seller_id, offer.want_resource, offer.want_amount);
    return { rows: resourceRows(mine) };
  });
}

/** Closes one's own open offer and gives the resources put aside back. */
export async function withdrawOffer(deps: AppDeps, user: SessionUser, input: OfferIdInput): Promise<{ rows: TradeResource[] }> {
  return deps.db.transaction().execute(async (trx) => {
    const offer = await repo.closeOffer(trx, input.id, 'withdrawn', { sellerId: user.id });
    if (!offer) {
      const existing = await repo.findOffer(trx, input.id);
      if (existing?.status === 'open') throw new AppError('FORBIDDEN', tradeMessages.notYourOffer);
      throw new AppError('CONFLICT', tradeMessages.offerGone);
    }
    const have = new Map((await repo.lockResources(trx, [user.id])).map((r) => [r.resource, r.amount]));
    const next = (have.get(offer.give_resource) ?? 0) + offer.give_amount;
    have.set(offer.give_resource, next);
    await repo.setAmount(trx, user.id, offer.give_resource, next);
    return { rows: resourceRows(have) };
  });
}

/* ---------- reset ---------- */

/** Clears the player's game; the next call starts a fresh one. */
export async function reset(deps: AppDeps, user: SessionUser): Promise<{ reset: true }> {
  await deps.db.transaction().execute((trx) => repo.deletePlayer(trx, user.id));
  return { reset: true };
}
