import { describe, expect, it } from 'vitest';
import { lineValue } from '@site/contracts';
import * as game from '../../src/areas/trade-game/trade-game.service.ts';
import { DRIFT_MS, quote } from '../../src/areas/trade-game/trade-game.prices.ts';
import type { SessionUser } from '../../src/identity/session-user.ts';
import { cookieFor, createUser, databases, postJson, refusal, useTestServer } from '../helpers.ts';

const amounts = (rows: { name: string; amount: number }[]) => Object.fromEntries(rows.map((r) => [r.name, r.amount]));
const START = { Gold: 100, Wood: 20, Stone: 10, Fish: 15, Grain: 10, Iron: 0 };

describe('trade values and the price rule', () => {
  it('counts a missing price as 0', () => {
    expect(lineValue(null, 7)).toBe(0);
    expect(lineValue(undefined, 7)).toBe(0);
    expect(lineValue(4, 7)).toBe(28);
  });

  it('moves 2% of the base per unit of pressure, then applies technologies', () => {
    const none = { buyDiscount: 0, sellBonus: 0 };
    expect(quote(4, 0, 'buy', none)).toBe(4);
    expect(quote(4, 20, 'buy', none)).toBe(6);
    expect(quote(4, -40, 'sell', none)).toBe(1);
    expect(quote(4, 0, 'buy', { buyDiscount: 10, sellBonus: 0 })).toBe(3);
    expect(quote(10, 0, 'sell', { buyDiscount: 0, sellBonus: 10 })).toBe(11);
    expect(quote(undefined, 5, 'buy', none)).toBeNull();
  });
});

describe.each(databases)('trade game (%s)', (kind) => {
  const s = useTestServer(kind);
  let player: SessionUser;
  const newPlayer = (name = 'player') => createUser(s.deps, name, 3);

  it('gives a new player their island and the starting resources, once', async () => {
    player = await newPlayer();
    const islands = await game.islands(s.deps, player);
    expect(islands.islands.map((i) => i.island_name)).toEqual(['Palm Harbor', 'Granite Reach', 'Amber Shoals', 'Coral Keys']);
    expect(islands.myIsland).toBe(game.homeIslandOf(player.id));
    const first = await game.resources(s.deps, player);
    expect([amounts(first.rows), first.reset]).toEqual([START, true]);
    expect(first.rows[1]).toEqual({ name: 'Wood', img_src: '/trade-game/wood.svg', amount: 20 });
    expect((await game.resources(s.deps, player)).reset).toBe(false);
  });

  it('applies a basket: buying costs price times amount in Gold, selling pays it', async () => {
    player = await newPlayer();
    const result = await game.trade(s.deps, player, {
      island: 'Palm Harbor',
      lines: [
        { side: 'buy', name: 'Wood', amount: 5 },
        { side: 'sell', name: 'Stone', amount: 2 },
        { side: 'buy', name: 'Grain', amount: 0 },
      ],
    });
    // Wood 5 x 4 = 20 spent; Stone 2 x 6 = 12 earned.
    expect(result.total).toBe(-8);
    expect(amounts(result.rows)).toEqual({ ...START, Gold: 92, Wood: 25, Stone: 8 });
    expect(amounts((await game.resources(s.deps, player)).rows)).toEqual(amounts(result.rows));
  });

  it('refuses goods the island names without a price (the 0 is for the total only), changing nothing', async () => {
    player = await newPlayer();
    const island = await game.island(s.deps, player, { island: 'Palm Harbor' });
    expect(island.data.sellList.find((i) => i.name === 'Fish')?.price).toBeNull();
    const sold = await refusal(
      game.trade(s.deps, player, {
        island: 'Palm Harbor',
        lines: [
          { side: 'buy', name: 'Wood', amount: 5 },
          { side: 'sell', name: 'Fish', amount: 3 },
        ],
      }),
    );
    expect(sold.message).toBe('Palm Harbor has no price for Fish, so it cannot be sold here');
    const bought = await refusal(game.trade(s.deps, player, { island: 'Amber Shoals', lines: [{ side: 'buy', name: 'Wood', amount: 2 }] }));
    expect(bought.message).toBe('Amber Shoals has no price for Wood, so it cannot be bought here');
    expect(amounts((await game.resources(s.deps, player)).rows)).toEqual(START);
  });

  it('refuses the whole basket when anything would go below zero, naming every shortfall', async () => {
    player = await newPlayer();
    const failed = await refusal(
      game.trade(s.deps, player, {
        island: 'Granite Reach',
        lines: [
          { side: 'buy', name: 'Iron', amount: 11 },
          { side: 'sell', name: 'Grain', amount: 12 },
          { side: 'sell', name: 'Wood', amount: 1 },
        ],
      }),
    );
    // Iron costs 110 Gold, the sales bring 66: the Gold is there, the Grain is not.
    expect(failed).toEqual({ code: 'BAD_REQUEST', message: 'Not enough Grain: needs 12, you have 10' });
    const broke = await refusal(
      game.trade(s.deps, player, { island: 'Granite Reach', lines: [{ side: 'buy', name: 'Iron', amount: 11 }, { side: 'sell', name: 'Fish', amount: 1 }] }),
    );
    expect(broke.message).toBe('Not enough Gold: needs 110, you have 100');
    expect(amounts((await game.resources(s.deps, player)).rows)).toEqual(START);
    const prices = await game.island(s.deps, player, { island: 'Granite Reach' });
    expect(prices.data.buyList.find((i) => i.name === 'Iron')?.price).toBe(10);
  });

  it('refuses unknown islands, items an island does not trade, empty baskets and baskets over the hold', async () => {
    player = await newPlayer();
    expect(await refusal(game.trade(s.deps, player, { island: 'Atlantis', lines: [] }))).toEqual({
      code: 'NOT_FOUND',
      message: 'There is no island called Atlantis',
    });
    expect((await refusal(game.trade(s.deps, player, { island: 'Palm Harbor', lines: [{ side: 'buy', name: 'Iron', amount: 1 }] }))).message).toBe(
      'Palm Harbor does not sell Iron',
    );
    expect((await refusal(game.trade(s.deps, player, { island: 'Palm Harbor', lines: [{ side: 'sell', name: 'Wood', amount: 1 }] }))).message).toBe(
      'Palm Harbor does not buy Wood',
    );
    expect((await refusal(game.trade(s.deps, player, { island: 'Palm Harbor', lines: [{ side: 'buy', name: 'Fish', amount: 0 }] }))).message).toBe(
      'Choose an amount on at least one line',
    );
    expect((await refusal(game.trade(s.deps, player, { island: 'Palm Harbor', lines: [{ side: 'buy', name: 'Fish', amount: 41 }] }))).message).toBe(
      'Your hold carries 40 units per trade; this basket moves 41',
    );
  });

  it('moves prices with each trade on that island and lets them drift back over time', async () => {
    player = await newPlayer();
    const t0 = Date.UTC(2026, 0, 1);
    const wood = async (now: number, island = 'Palm Harbor') =>
      (await game.island(s.deps, player, { island }, { now })).data.buyList.find((i) => i.name === 'Wood')?.price;
    await game.trade(s.deps, player, { island: 'Palm Harbor', lines: [{ side: 'buy', name: 'Wood', amount: 20 }] }, { now: t0 });
    expect(await wood(t0)).toBe(6);
    expect(await wood(t0, 'Coral Keys')).toBe(5);
    expect(await wood(t0 + 10 * DRIFT_MS)).toBe(5);
    expect(await wood(t0 + 20 * DRIFT_MS)).toBe(4);
    expect(await wood(t0 + 1000 * DRIFT_MS)).toBe(4);
    // The next trade is charged the drifted price: 10 minutes on, Wood costs 5.
    const later = await game.trade(s.deps, player, { island: 'Palm Harbor', lines: [{ side: 'buy', name: 'Wood', amount: 1 }] }, { now: t0 + 10 * DRIFT_MS });
    expect(later.total).toBe(-5);
    // Selling pushes the other way.
    await game.trade(s.deps, player, { island: 'Granite Reach', lines: [{ side: 'sell', name: 'Wood', amount: 25 }] }, { now: t0 });
    const granite = await game.island(s.deps, player, { island: 'Granite Reach' }, { now: t0 });
    expect(granite.data.sellList.find((i) => i.name === 'Wood')?.price).toBe(3);
  });

  it('sells technologies once, for their cost, and they change prices and the hold', async () => {
    player = await newPlayer();
    const techs = await game.techs(s.deps, player);
    expect(techs.map((t) => [t.name, t.owned])).toEqual([['Trade Ledger', false], ['Silver Tongue', false], ['Deep Hold', false]]);
    expect(techs[0]).toMatchObject({ effect: 'Buy prices 10% lower on every island', cost: [{ name: 'Gold', amount: 60 }, { name: 'Wood', amount: 10 }] });
    expect(await refusal(game.buyTech(s.deps, player, { tech: 'Deep Hold' }))).toEqual({
      code: 'BAD_REQUEST',
      message: 'Not enough Wood: needs 30, you have 20; Iron: needs 5, you have 0',
    });
    expect((await game.techs(s.deps, player)).every((t) => !t.owned)).toBe(true);
    const bought = await game.buyTech(s.deps, player, { tech: 'Trade Ledger' });
    expect(amounts(bought.rows)).toMatchObject({ Gold: 40, Wood: 10 });
    expect(bought.techs[0]?.owned).toBe(true);
    expect((await refusal(game.buyTech(s.deps, player, { tech: 'Trade Ledger' }))).message).toBe('You already have Trade Ledger');
    expect(amounts((await game.resources(s.deps, player)).rows)).toMatchObject({ Gold: 40, Wood: 10 });
    const island = await game.island(s.deps, player, { island: 'Palm Harbor' });
    expect(island.data.buyList.find((i) => i.name === 'Wood')?.price).toBe(3);
    expect((await refusal(game.buyTech(s.deps, player, { tech: 'Time Machine' }))).code).toBe('NOT_FOUND');
  });

  it('exchanges a player offer once; the offered resources wait aside; withdrawing gives them back', async () => {
    const seller = await newPlayer('seller');
    const buyer = await newPlayer('buyer');
    const offer = await game.makeOffer(s.deps, seller, { give: { name: 'Wood', amount: 5 }, want: { name: 'Fish', amount: 3 } });
    expect(offer).toMatchObject({ seller: 'seller', give: { name: 'Wood', amount: 5 }, want: { name: 'Fish', amount: 3 }, mine: true });
    expect(amounts((await game.resources(s.deps, seller)).rows).Wood).toBe(15);
    const seen = await game.offers(s.deps, buyer);
    expect([seen.open.map((o) => o.id), seen.mine]).toEqual([[offer.id], []]);
    expect((await game.offers(s.deps, seller)).mine.map((o) => o.id)).toEqual([offer.id]);

    expect((await refusal(game.acceptOffer(s.deps, seller, { id: offer.id }))).message).toBe('You cannot accept your own offer');
    const accepted = await game.acceptOffer(s.deps, buyer, { id: offer.id });
    expect(amounts(accepted.rows)).toMatchObject({ Wood: 25, Fish: 12 });
    expect(amounts((await game.resources(s.deps, seller)).rows)).toMatchObject({ Wood: 15, Fish: 18 });
    expect(await refusal(game.acceptOffer(s.deps, buyer, { id: offer.id }))).toEqual({ code: 'CONFLICT', message: 'That offer is no longer open' });
    expect((await refusal(game.withdrawOffer(s.deps, seller, { id: offer.id }))).code).toBe('CONFLICT');
    expect((await game.offers(s.deps, buyer)).open).toEqual([]);

    const second = await game.makeOffer(s.deps, seller, { give: { name: 'Stone', amount: 4 }, want: { name: 'Iron', amount: 2 } });
    expect((await refusal(game.acceptOffer(s.deps, buyer, { id: second.id }))).message).toBe('Not enough Iron: needs 2, you have 0');
    expect((await game.offers(s.deps, buyer)).open.map((o) => o.id)).toEqual([second.id]);
    expect((await refusal(game.withdrawOffer(s.deps, buyer, { id: second.id }))).code).toBe('FORBIDDEN');
    expect(amounts((await game.withdrawOffer(s.deps, seller, { id: second.id })).rows).Stone).toBe(10);
    expect((await game.offers(s.deps, buyer)).open).toEqual([]);

    expect((await refusal(game.makeOffer(s.deps, seller, { give: { name: 'Iron', amount: 1 }, want: { name: 'Wood', amount: 1 } }))).message).toBe(
      'Not enough Iron: needs 1, you have 0',
    );
    expect((await refusal(game.makeOffer(s.deps, seller, { give: { name: 'Wood', amount: 1 }, want: { name: 'Wood', amount: 1 } }))).message).toBe(
      'Offer one resource for a different one',
    );
    expect((await refusal(game.makeOffer(s.deps, seller, { give: { name: 'Mana', amount: 1 }, want: { name: 'Wood', amount: 1 } }))).message).toBe(
      'There is no resource called Mana',
    );
  });

  it('resets a player: everything cleared, open offers gone, the next visit starts fresh', async () => {
    player = await newPlayer();
    const other = await newPlayer('other');
    await game.resources(s.deps, player);
    await game.trade(s.deps, player, { island: 'Palm Harbor', lines: [{ side: 'buy', name: 'Wood', amount: 10 }] });
    await game.buyTech(s.deps, player, { tech: 'Trade Ledger' });
    await game.makeOffer(s.deps, player, { give: { name: 'Fish', amount: 2 }, want: { name: 'Wood', amount: 2 } });
    await game.reset(s.deps, player);
    expect((await game.offers(s.deps, other)).open).toEqual([]);
    const fresh = await game.resources(s.deps, player);
    expect([amounts(fresh.rows), fresh.reset]).toEqual([START, true]);
    expect((await game.techs(s.deps, player)).some((t) => t.owned)).toBe(false);
    const island = await game.island(s.deps, player, { island: 'Palm Harbor' });
    expect(island.data.buyList.find((i) => i.name === 'Wood')?.price).toBe(4);
  });

  it("follows the page's rule: a friend on the usual port is refused on /trpc and /api, as recipes are", async () => {
    const friend = await cookieFor(s.deps, 1, 'friend');
    const body = { island: 'Palm Harbor', lines: [{ side: 'buy', name: 'Fish', amount: 2 }] };
    for (const [url, payload] of [
      ['/trpc/tradeGame.trade', body],
      ['/trpc/tradeGame.resources', undefined],
      ['/api/trade_game/get_islands', {}],
      ['/api/trade_game/get_resources', {}],
      ['/api/trade_game/get_island_data', { island: 'Palm Harbor' }],
      ['/api/trade_game/reset_player', {}],
    ] as const) {
      const res = await postJson(s.app, url, payload, friend);
      expect([url, res.statusCode]).toEqual([url, 403]);
    }
    const res = await s.app.inject({ method: 'GET', url: '/trpc/tradeGame.offers', headers: { cookie: friend } });
    expect(res.statusCode).toBe(403);
  });

  it('trades over /trpc with the session cookie, and refuses anonymous callers', async () => {
    const cookie = await cookieFor(s.deps, 3, 'admin');
    const body = { island: 'Palm Harbor', lines: [{ side: 'buy', name: 'Fish', amount: 2 }] };
    const res = await postJson(s.app, '/trpc/tradeGame.trade', body, cookie);
    expect(res.statusCode).toBe(200);
    expect(amounts(res.json().result.data.rows)).toMatchObject({ Gold: 96, Fish: 17 });
    expect((await postJson(s.app, '/trpc/tradeGame.trade', body)).statusCode).toBe(401);
    const bad = await postJson(s.app, '/trpc/tradeGame.trade', { ...body, lines: [{ side: 'buy', name: 'Fish', amount: -1 }] }, cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('Amount may not be negative');
  });

  describe('at the same moment', () => {
    it('never overdraws: of parallel baskets that each alone are affordable, only what the Gold covers goes through', async () => {
      player = await newPlayer();
      await game.resources(s.deps, player);
      const basket = { island: 'Granite Reach', lines: [{ side: 'buy' as const, name: 'Iron', amount: 8 }] };
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => game.trade(s.deps, player, basket)));
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect((r.reason as Error).message).toMatch(/^Not enough Gold: needs \d+, you have 20$/);
      expect(amounts((await game.resources(s.deps, player)).rows)).toMatchObject({ Gold: 20, Iron: 8 });
    });

    it('creates one game for a first visit that arrives as several requests at once', async () => {
      player = await newPlayer();
      const all = await Promise.all([game.resources(s.deps, player), game.islands(s.deps, player), game.resources(s.deps, player)]);
      expect(amounts(all[0].rows)).toEqual(START);
      expect(amounts(all[2].rows)).toEqual(START);
    });

    it('exchanges an offer exactly once when many players accept it together', async () => {
      const seller = await newPlayer('seller');
      const buyers = await Promise.all(Array.from({ length: 6 }, (_, i) => newPlayer(`buyer${i}`)));
      await Promise.all(buyers.map((b) => game.resources(s.deps, b)));
      const offer = await game.makeOffer(s.deps, seller, { give: { name: 'Wood', amount: 10 }, want: { name: 'Fish', amount: 5 } });
      const results = await Promise.allSettled(buyers.map((b) => game.acceptOffer(s.deps, b, { id: offer.id })));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect((r.reason as Error).message).toBe('That offer is no longer open');
      expect(amounts((await game.resources(s.deps, seller)).rows)).toMatchObject({ Wood: 10, Fish: 20 });
      const woods = await Promise.all(buyers.map(async (b) => amounts((await game.resources(s.deps, b)).rows).Wood));
      expect(woods.sort()).toEqual([20, 20, 20, 20, 20, 30]);
    });

    it('lets either the acceptance or the withdrawal win, never both', async () => {
      const seller = await newPlayer('seller');
      const buyer = await newPlayer('buyer');
      await game.resources(s.deps, buyer);
      for (let round = 0; round < 3; round++) {
        const offer = await game.makeOffer(s.deps, seller, { give: { name: 'Stone', amount: 1 }, want: { name: 'Grain', amount: 1 } });
        const [accepted, withdrawn] = await Promise.allSettled([
          game.acceptOffer(s.deps, buyer, { id: offer.id }),
          game.withdrawOffer(s.deps, seller, { id: offer.id }),
        ]);
        expect([accepted.status, withdrawn.status].filter((st) => st === 'fulfilled')).toHaveLength(1);
      }
      // Stone and Grain are conserved between the two players.
      const a = amounts((await game.resources(s.deps, seller)).rows);
      const b = amounts((await game.resources(s.deps, buyer)).rows);
      expect([a.Stone! + b.Stone!, a.Grain! + b.Grain!]).toEqual([20, 20]);
    });

    it('does not deadlock when two players accept each other\'s offers at once', async () => {
      const one = await newPlayer('one');
      const two = await newPlayer('two');
      const fromOne = await game.makeOffer(s.deps, one, { give: { name: 'Wood', amount: 2 }, want: { name: 'Fish', amount: 2 } });
      const fromTwo = await game.makeOffer(s.deps, two, { give: { name: 'Fish', amount: 2 }, want: { name: 'Wood', amount: 2 } });
      const results = await Promise.all([game.acceptOffer(s.deps, two, { id: fromOne.id }), game.acceptOffer(s.deps, one, { id: fromTwo.id })]);
      expect(results).toHaveLength(2);
      // Each gave 2 of one and got 2 of the other twice over: 2 Wood set aside, then 2 Wood paid.
      expect(amounts((await game.resources(s.deps, one)).rows)).toMatchObject({ Wood: 16, Fish: 19 });
      expect(amounts((await game.resources(s.deps, two)).rows)).toMatchObject({ Wood: 24, Fish: 11 });
    });
  });
});
