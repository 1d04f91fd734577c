import { describe, expect, it } from 'vitest';
import { MAX_ZOOM, MIN_ZOOM, TILE_SIZE, clampZoom, fitCamera, tileAtPoint, wheelFactor, zoomAt } from './camera.ts';

describe('the map camera', () => {
  it('keeps the zoom between 0.1 and 5', () => {
    expect(clampZoom(0.01)).toBe(MIN_ZOOM);
    expect(clampZoom(99)).toBe(MAX_ZOOM);
    expect(clampZoom(Number.NaN)).toBe(1);
    let camera = { zoom: 1, offsetX: 0, offsetY: 0 };
    for (let i = 0; i < 100; i++) camera = zoomAt(camera, wheelFactor(-500), 100, 100);
    expect(camera.zoom).toBe(5);
    for (let i = 0; i < 100; i++) camera = zoomAt(camera, wheelFactor(500), 100, 100);
    expect(camera.zoom).toBe(0.1);
  });

  it('zooms around the pointer: the tile under it stays under it', () => {
    const camera = { zoom: 1, offsetX: 20, offsetY: 10 };
    const before = tileAtPoint(camera, 300, 200);
    const after = zoomAt(camera, 2.5, 300, 200);
    expect(tileAtPoint(after, 300, 200)).toEqual(before);
    expect((300 - after.offsetX) / after.zoom).toBeCloseTo((300 - camera.offsetX) / camera.zoom);
  });

  it('draws tiles 64 px wide at zoom 1', () => {
    expect(TILE_SIZE).toBe(64);
    expect(tileAtPoint({ zoom: 1, offsetX: 0, offsetY: 0 }, 64 * 3 + 1, 64 * 2 + 63)).toEqual({ x: 3, y: 2 });
  });

  it('fits the whole map on a wide screen and fills the height on a phone', () => {
    const wide = fitCamera(16, 11, 1200, 800);
    expect(16 * 64 * wide.zoom).toBeLessThanOrEqual(1200);
    const phone = fitCamera(16, 11, 390, 500, { x: 2, y: 2 });
    expect(phone.zoom).toBeGreaterThan(fitCamera(16, 11, 390, 500).zoom);
  });
});
