import { describe, expect, it } from 'vitest';
import { STARTUP_BATCH_URL } from '../../start-hints.ts';
import { batchUrl, firstPageCalls } from './first-page-data.ts';

describe("a page's first calls", () => {
  it("makes tRPC's batch address: the startup batch's is the one index.html preloads", () => {
    expect(batchUrl([{ path: 'auth.status' }, { path: 'settings.colors' }, { path: 'settings.navbarStyle' }])).toBe(STARTUP_BATCH_URL);
    expect(batchUrl([{ path: 'pictures.page', input: { type: 'month', index: 0 } }])).toBe(
      '/trpc/pictures.page?batch=1&input=%7B%220%22%3A%7B%22type%22%3A%22month%22%2C%22index%22%3A0%7D%7D',
    );
  });

  it("holds for the page's own address only, a trailing slash ignored", () => {
    expect(firstPageCalls('/personal/pictures/map')).toEqual([{ path: 'pictures.map' }]);
    expect(firstPageCalls('/personal/pictures/map/')).toEqual([{ path: 'pictures.map' }]);
    expect(firstPageCalls('/personal/pictures')).toEqual([{ path: 'pictures.page', input: { type: 'month', index: 0 } }]);
    expect(firstPageCalls('/personal/pictures/month/3')).toBeUndefined();
    expect(firstPageCalls('/house')).toBeUndefined();
    expect(firstPageCalls('/toString')).toBeUndefined();
  });
});
