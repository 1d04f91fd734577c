import type { Executor } from '../../db/database.ts';
import type { OfferStatus } from './trade-game.tables.ts';

export function insertPlayer(db: Executor, userId: number, myIsland: string) {
  return db
    .insertInto('trade_players')
    .values({ user_id: userId, my_island: myIsland })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .returning('user_id')
    .executeTakeFirst();
}

export function findPlayer(db: Executor, userId: number) {
  return db.selectFrom('trade_players').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export function markSeen(db: Executor, userId: number) {
  return db.updateTable('trade_players').set({ fresh: false }).where('user_id', '=', userId).where('fresh', '=', true).execute();
}

export function insertResources(db: Executor, rows: { user_id: number; resource: string; amount: number }[]) {
  return db
    .insertInto('trade_resources')
    .values(rows)
    .onConflict((oc) => oc.columns(['user_id', 'resource']).doNothing())
    .execute();
}

export function listResources(db: Executor, userId: number) {
  return db.selectFrom('trade_resources').select(['resource', 'amount']).where('user_id', '=', userId).execute();
}

/**
 * The resources of these players, locked until the transaction ends. Always locked in the same order
 * (player, then resource), so two transactions touching the same two players cannot deadlock.
 */
export function lockResources(db: Executor, userIds: number[]) {
  return db
    .selectFrom('trade_resources')
    .select(['user_id', 'resource', 'amount'])
    .where('user_id', 'in', userIds)
    .orderBy('user_id')
    .orderBy('resource')
    .forUpdate()
    .execute();
}

export function setAmount(db: Executor, userId: number, resource: string, amount: number) {
  return db
    .insertInto('trade_resources')
    .values({ user_id: userId, resource, amount })
    .onConflict((oc) => oc.columns(['user_id', 'resource']).doUpdateSet({ amount }))
    .execute();
}

export function listPrices(db: Executor, userId: number, island: string) {
  return db.selectFrom('trade_prices').selectAll().where('user_id', '=', userId).where('island', '=', island).execute();
}

export function savePressure(db: Executor, row: { user_id: number; island: string; item: string; pressure: number; updated_at: Date }) {
  return db
    .insertInto('trade_prices')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'island', 'item']).doUpdateSet({ pressure: row.pressure, updated_at: row.updated_at }))
    .execute();
}

export function listTechs(db: Executor, userId: number) {
  return db.selectFrom('trade_techs').select('tech').where('user_id', '=', userId).execute();
}

/** Records a purchase; undefined when the player already had it. */
export function insertTech(db: Executor, userId: number, tech: string) {
  return db
    .insertInto('trade_techs')
    .values({ user_id: userId, tech })
    .onConflict((oc) => oc.columns(['user_id', 'tech']).doNothing())
    .returning('tech')
    .executeTakeFirst();
}

export function countOpenOffers(db: Executor, userId: number) {
  return db
    .selectFrom('trade_offers')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('seller_id', '=', userId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.n));
}

export function insertOffer(
  db: Executor,
  offer: { seller_id: number; give_resource: string; give_amount: number; want_resource: string; want_amount: number },
) {
  return db.insertInto('trade_offers').values(offer).returningAll().executeTakeFirstOrThrow();
}

export function listOpenOffers(db: Executor, limit: number) {
  return db
    .selectFrom('trade_offers')
    .innerJoin('users', 'users.id', 'trade_offers.seller_id')
    .selectAll('trade_offers')
    .select('users.name as seller_name')
    .where('trade_offers.status', '=', 'open')
    .orderBy('trade_offers.id', 'desc')
    .limit(limit)
    .execute();
}

export function findOffer(db: Executor, id: number) {
  return db.selectFrom('trade_offers').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Closes an open offer: the one conditional update that decides who wins when two players accept
 * (or the seller withdraws) at the same moment. Undefined when it was not open or not allowed.
 */
export function closeOffer(
  db: Executor,
  id: number,
  to: Exclude<OfferStatus, 'open'>,
  who: { buyerId: number } | { sellerId: number },
) {
  let query = db
    .updateTable('trade_offers')
    .set({ status: to, closed_at: new Date(), ...('buyerId' in who ? { buyer_id: who.buyerId } : {}) })
    .where('id', '=', id)
    .where('status', '=', 'open');
  query = 'buyerId' in who ? query.where('seller_id', '<>', who.buyerId) : query.where('seller_id', '=', who.sellerId);
  return query.returningAll().executeTakeFirst();
}

/** Everything of one player's game; their open offers go too (their escrow goes with the resources). */
export async function deletePlayer(db: Executor, userId: number) {
  await db.deleteFrom('trade_offers').where('seller_id', '=', userId).where('status', '=', 'open').execute();
  await db.deleteFrom('trade_prices').where('user_id', '=', userId).execute();
  await db.deleteFrom('trade_techs').where('user_id', '=', userId).execute();
  await db.deleteFrom('trade_resources').where('user_id', '=', userId).execute();
  await db.deleteFrom('trade_players').where('user_id', '=', userId).execute();
}
