import { expect } from 'vitest';
import type { tradeGameRoutes } from '@site/contracts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';
import { cookieFor, postJson } from '../helpers.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const tradeGameSamples = {
  'tradeGame.islands': undefined,
  'tradeGame.resources': undefined,
  'tradeGame.island': { island: 'Palm Harbor' },
  'tradeGame.trade': { island: 'Palm Harbor', lines: [{ side: 'buy', name: 'Fish', amount: 1 }] },
  'tradeGame.techs': undefined,
  'tradeGame.buyTech': { tech: 'Trade Ledger' },
  'tradeGame.offers': undefined,
  'tradeGame.makeOffer': { give: { name: 'Wood', amount: 1 }, want: { name: 'Fish', amount: 1 } },
  'tradeGame.acceptOffer': { id: 1 },
  'tradeGame.withdrawOffer': { id: 1 },
  'tradeGame.reset': undefined,
} satisfies AreaSamples<typeof tradeGameRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const tradeGameParity = {
  async '/api/trade_game/get_islands'(s) {
    const cookie = await cookieFor(s.deps, 3);
    const res = await postJson(s.app, '/api/trade_game/get_islands', undefined, cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['islands', 'myIsland']);
    expect(body.islands[0]).toEqual({ island_name: 'Palm Harbor' });
    expect(body.islands.map((i: { island_name: string }) => i.island_name)).toContain(body.myIsland);
    expect((await postJson(s.app, '/api/trade_game/get_islands')).statusCode).toBe(401);
  },
  async '/api/trade_game/get_resources'(s) {
    const cookie = await cookieFor(s.deps, 3);
    const first = (await postJson(s.app, '/api/trade_game/get_resources', undefined, cookie)).json();
    expect(Object.keys(first).sort()).toEqual(['reset', 'rows']);
    expect(first.reset).toBe(true);
    expect(first.rows[0]).toEqual({ name: 'Gold', img_src: '/trade-game/gold.svg', amount: 100 });
    const again = (await postJson(s.app, '/api/trade_game/get_resources', undefined, cookie)).json();
    expect(again.reset).toBe(false);
  },
  async '/api/trade_game/get_island_data'(s) {
    const cookie = await cookieFor(s.deps, 3);
    const res = await postJson(s.app, '/api/trade_game/get_island_data', { island: 'Granite Reach' }, cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ accentColor: '#8a8f98', foregroundColor: '#f4f4f6', menuColor: '#2b2d33' });
    expect(body.data.buyList[0]).toEqual({ name: 'Stone', price: 3, img_src: '/trade-game/stone.svg' });
    expect(body.data.sellList.map((i: { name: string }) => i.name)).toEqual(['Wood', 'Grain', 'Fish']);
    const missing = await postJson(s.app, '/api/trade_game/get_island_data', { island: 'Atlantis' }, cookie);
    expect([missing.statusCode, missing.json()]).toEqual([404, { message: 'There is no island called Atlantis' }]);
    const empty = await postJson(s.app, '/api/trade_game/get_island_data', {}, cookie);
    expect(empty.statusCode).toBe(400);
  },
  async '/api/trade_game/reset_player'(s) {
    const cookie = await cookieFor(s.deps, 3);
    await postJson(s.app, '/api/trade_game/get_resources', undefined, cookie);
    const res = await postJson(s.app, '/api/trade_game/reset_player', undefined, cookie);
    expect(res.statusCode).toBe(200);
    const after = (await postJson(s.app, '/api/trade_game/get_resources', undefined, cookie)).json();
    expect(after.reset).toBe(true);
  },
} satisfies AreaParity<typeof tradeGameRoutes>;
