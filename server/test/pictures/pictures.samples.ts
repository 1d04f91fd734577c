import { expect } from 'vitest';
import type { picturesRoutes } from '@site/contracts';
import { drainJobs } from '../../src/areas/pictures/pictures.worker.ts';
import { cookieFor, postJson } from '../helpers.ts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';
import { png, uploadVia } from './pictures.fixtures.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const picturesSamples = {
  'pictures.page': { type: 'month', index: 0 },
  'pictures.pageInfo': { type: 'year', index: 0 },
  'pictures.get': { type: 24, index: 0, pic: 0 },
  'pictures.pending': undefined,
  'pictures.pendingCount': undefined,
  'pictures.approve': { id: 1 },
  'pictures.reject': { id: 1 },
  'pictures.update': { id: 1, caption: 'Beach', date: '2024-07-xx' },
  'pictures.delete': { id: 1 },
  'pictures.mediaCheck': undefined,
  'pictures.mediaStore': undefined,
  'pictures.social': { id: 1 },
  'pictures.heart': { id: 1, on: true },
  'pictures.comment': { id: 1, text: 'Lovely!' },
  'pictures.editComment': { commentId: 1, text: 'Lovely, Grandma!' },
  'pictures.deleteComment': { commentId: 1 },
  'pictures.onThisDay': undefined,
  'pictures.search': { q: 'beach 2024' },
  'pictures.suggest': { q: 'bea' },
  'pictures.map': undefined,
  'pictures.byIds': { ids: [1, 2] },
} satisfies AreaSamples<typeof picturesRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const picturesParity = {
  async '/api/pictures/get_all'(s) {
    const cookie = await cookieFor(s.deps, 2);
    for (const [date, colour] of [['2024-07-15', '#102030'], ['2024-07-02', '#203040'], ['2023-xx-xx', '#304050']] as const) {
      expect((await uploadVia(s.app, cookie, { name: 'a.png', data: await png(undefined, colour) }, { caption: date, date })).statusCode).toBe(200);
    }
    const res = await postJson(s.app, '/api/pictures/get_all', { type: 'month', index: '0' }, cookie);
    expect(res.json()).toEqual({ pageLength: 2, pageCount: 2 });
    const sized = await postJson(s.app, '/api/pictures/get_all', { type: '2', index: 1 }, cookie);
    expect(sized.json()).toEqual({ pageLength: 1, pageCount: 2 });
    const bad = await postJson(s.app, '/api/pictures/get_all', { type: 'week', index: 0 }, cookie);
    expect(bad.statusCode).toBe(400);
    // The app's worker would still be making thumbnails when the next test empties the tables.
    await drainJobs(s.deps);
  },
  async '/api/pictures/get'(s) {
    const cookie = await cookieFor(s.deps, 2);
    await uploadVia(s.app, cookie, { name: 'a.png', data: await png() }, { caption: 'Old', date: '2020-01-xx' });
    await uploadVia(s.app, cookie, { name: 'b.png', data: await png(undefined, '#336699') }, { caption: 'New', date: '2024-07-15' });
    const res = await postJson(s.app, '/api/pictures/get', { type: 'year', index: 1, pic: '0' }, cookie);
    const body = res.json<Record<string, string>>();
    expect(Object.keys(body).sort()).toEqual(['desc', 'fileType', 'target', 'uploaded']);
    expect(body).toMatchObject({ desc: 'Old', fileType: 'png', uploaded: '2020-01-xx' });
    expect(body.target).toMatch(/^[0-9a-f]{32}\.png$/);
    const missing = await postJson(s.app, '/api/pictures/get', { type: 'year', index: 0, pic: 5 }, cookie);
    expect([missing.statusCode, missing.json()]).toEqual([404, { message: 'There is no picture at that position' }]);
    await drainJobs(s.deps);
  },
} satisfies AreaParity<typeof picturesRoutes>;
