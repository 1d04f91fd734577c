/** Map geometry: tiles are 64 px at zoom 1, and the wheel zooms between 0.1 and 5 (spec section 9). */
export const TILE_SIZE = 64;
export const MIN_ZOOM = 0.1;
export const MAX_ZOOM = 5;

/** Screen = world * zoom + offset, in CSS pixels relative to the map's top-left corner. */
export type Camera = { zoom: number; offsetX: number; offsetY: number };

export function clampZoom(zoom: number): number {
  if (!Number.isFinite(zoom)) return 1;
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
}

/** Zooms by `factor` keeping the world point under (px, py) where it is. */
export function zoomAt(camera: Camera, factor: number, px: number, py: number): Camera {
  const zoom = clampZoom(camera.zoom * factor);
  const ratio = zoom / camera.zoom;
  return { zoom, offsetX: px - (px - camera.offsetX) * ratio, offsetY: py - (py - camera.offsetY) * ratio };
}

/** The zoom factor of one wheel event (deltaMode 1 = lines, 2 = pages). */
export function wheelFactor(deltaY: number, deltaMode = 0): number {
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.exp(-Math.max(-600, Math.min(600, pixels)) * 0.0015);
}

export function pan(camera: Camera, dx: number, dy: number): Camera {
  return { ...camera, offsetX: camera.offsetX + dx, offsetY: camera.offsetY + dy };
}

/** The tile under a screen point. */
export function tileAtPoint(camera: Camera, px: number, py: number): { x: number; y: number } {
  const size = TILE_SIZE * camera.zoom;
  return { x: Math.floor((px - camera.offsetX) / size), y: Math.floor((py - camera.offsetY) / size) };
}

/**
 * A camera showing the whole map centred in the viewport, never above zoom 1.25. On a narrow screen,
 * where the whole map would make the tokens too small to read, it fills the height instead and centres
 * on `focus` (the active survivor); the rest is a drag away.
 */
export function fitCamera(mapWidth: number, mapHeight: number, viewWidth: number, viewHeight: number, focus?: { x: number; y: number }): Camera {
  const worldW = mapWidth * TILE_SIZE;
  const worldH = mapHeight * TILE_SIZE;
  const whole = clampZoom(Math.min(1.25, (viewWidth - 16) / worldW, (viewHeight - 16) / worldH));
  if (whole >= 0.55 || !focus) {
    return { zoom: whole, offsetX: (viewWidth - worldW * whole) / 2, offsetY: (viewHeight - worldH * whole) / 2 };
  }
  const zoom = clampZoom(Math.max(whole, Math.min(0.8, (viewHeight - 16) / worldH)));
  const centreX = viewWidth / 2 - (focus.x + 0.5) * TILE_SIZE * zoom;
  // Keep the map's edges from drifting inside the view when the survivor is near one.
  const offsetX = Math.min(8, Math.max(viewWidth - 8 - worldW * zoom, centreX));
  return { zoom, offsetX, offsetY: (viewHeight - worldH * zoom) / 2 };
}

/** Moves the camera so the tile (x, y) is in view, without changing the zoom. */
export function ensureVisible(camera: Camera, x: number, y: number, viewWidth: number, viewHeight: number, margin = 1): Camera {
  const size = TILE_SIZE * camera.zoom;
  const left = camera.offsetX + (x - margin) * size;
  const right = camera.offsetX + (x + 1 + margin) * size;
  const top = camera.offsetY + (y - margin) * size;
  const bottom = camera.offsetY + (y + 1 + margin) * size;
  let { offsetX, offsetY } = camera;
  if (right - left <= viewWidth) {
    if (left < 0) offsetX -= left;
    else if (right > viewWidth) offsetX -= right - viewWidth;
  }
  if (bottom - top <= viewHeight) {
    if (top < 0) offsetY -= top;
    else if (bottom > viewHeight) offsetY -= bottom - viewHeight;
  }
  return { ...camera, offsetX, offsetY };
}
