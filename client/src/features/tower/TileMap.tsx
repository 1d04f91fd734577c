import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { floorTiles, type GameState, type Point, type Tile } from '@site/game-engine';
import { ensureVisible, fitCamera, pan, tileAtPoint, wheelFactor, zoomAt, type Camera } from './camera.ts';
import { drawMap, type Highlight, type Theme } from './draw.ts';
import { sceneAnimating } from './scene.ts';
import type { SceneStore } from './scene-store.ts';

export type TileMapHandle = {
  zoomBy: (factor: number) => void;
  fit: () => void;
  reveal: (p: Point) => void;
};

type Props = {
  store: SceneStore;
  tiles: readonly Tile[];
  mapWidth: number;
  mapHeight: number;
  activeId: string | null;
  highlight: Highlight | null;
  cursor: Point | null;
  chosen: Point | null;
  onTileClick: (p: Point) => void;
  label: string;
  /** Where a narrow screen centres when it cannot show the whole map. */
  focus: Point | null;
  handle?: Ref<TileMapHandle>;
};

/** The map's floor and who is active, from a game state (the game and its replay draw the same map). */
export function floorMapOf(state: GameState, busy: boolean): Pick<Props, 'tiles' | 'mapWidth' | 'mapHeight' | 'activeId' | 'label'> {
  const floor = floorTiles(state);
  return {
    tiles: floor.tiles,
    mapWidth: floor.width,
    mapHeight: floor.height,
    activeId: busy ? null : state.activeSurvivorId,
    label: `Map of ${state.levels[state.levelIndex]?.name ?? 'the tower'}`,
  };
}

function readTheme(element: Element): Theme {
  const style = getComputedStyle(element);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    background: v('--background-color', '#111'),
    accent: v('--accent-color', '#5af'),
    link: v('--link-color', '#8cf'),
    error: v('--error-color', '#e55'),
    foreground: v('--foreground-color', '#eee'),
  };
}

/**
 * The map: one canvas, redrawn in a requestAnimationFrame only when something changed (or while an
 * animation runs). Pan and zoom live in a ref and never re-render React; the zoom is mirrored in
 * data-zoom for tests. Wheel zooms around the pointer; the right button (or a finger) drags.
 */
export function TileMap(props: Props) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const camera = useRef<Camera | null>(null);
  const size = useRef({ width: 0, height: 0 });
  const frame = useRef(0);
  const latest = useRef(props);
  const theme = useRef<Theme | null>(null);
  // The latest props for the draw loop, which runs outside React's render.
  useEffect(() => {
    latest.current = props;
  });

  const requestDraw = useRef<() => void>(() => undefined);

  useEffect(() => {
    const wrap = wrapRef.current;
    const canvas = canvasRef.current;
    if (!wrap || !canvas) return;
    const ctx = canvas.getContext('2d');
    theme.current = readTheme(wrap);

    const draw = () => {
      frame.current = 0;
      const p = latest.current;
      const cam = camera.current;
      if (!ctx || !cam) return;
      const dpr = window.devicePixelRatio || 1;
      const now = performance.now();
      const scene = p.store.get();
      drawMap(ctx, {
        scene,
        tiles: p.tiles,
        mapWidth: p.mapWidth,
        mapHeight: p.mapHeight,
        camera: cam,
        width: size.current.width,
        height: size.current.height,
        dpr,
        activeId: p.activeId,
        highlight: p.highlight,
        cursor: p.cursor,
        chosen: p.chosen,
        theme: theme.current ?? readTheme(wrap),
        now,
      });
      wrap.dataset.zoom = cam.zoom.toFixed(4);
      if (sceneAnimating(scene, now)) frame.current = requestAnimationFrame(draw);
    };
    requestDraw.current = () => {
      if (frame.current === 0) frame.current = requestAnimationFrame(draw);
    };

    const resize = () => {
      const rect = wrap.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      size.current = { width: rect.width, height: rect.height };
      canvas.width = Math.max(1, Math.round(rect.width * dpr));
      canvas.height = Math.max(1, Math.round(rect.height * dpr));
      const p = latest.current;
      if (!camera.current && rect.width > 0) camera.current = fitCamera(p.mapWidth, p.mapHeight, rect.width, rect.height, p.focus ?? undefined);
      requestDraw.current();
    };
    resize();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(resize);
    observer?.observe(wrap);

    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const cam = camera.current;
      if (!cam) return;
      const rect = wrap.getBoundingClientRect();
      camera.current = zoomAt(cam, wheelFactor(event.deltaY, event.deltaMode), event.clientX - rect.left, event.clientY - rect.top);
      requestDraw.current();
    };
    wrap.addEventListener('wheel', onWheel, { passive: false });
    const unsubscribe = latest.current.store.subscribe(() => requestDraw.current());
    const onTheme = new MutationObserver(() => {
      theme.current = readTheme(wrap);
      requestDraw.current();
    });
    onTheme.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
    return () => {
      observer?.disconnect();
      onTheme.disconnect();
      wrap.removeEventListener('wheel', onWheel);
      unsubscribe();
      if (frame.current) cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
  }, []);

  // Any prop change (state, highlight, cursor) is one redraw.
  useEffect(() => {
    requestDraw.current();
  });

  const revealPoint = (p: Point) => {
    const cam = camera.current;
    if (!cam) return;
    camera.current = ensureVisible(cam, p.x, p.y, size.current.width, size.current.height);
    requestDraw.current();
  };

  useImperativeHandle(props.handle, () => ({
    zoomBy: (factor) => {
      const cam = camera.current;
      if (!cam) return;
      camera.current = zoomAt(cam, factor, size.current.width / 2, size.current.height / 2);
      requestDraw.current();
    },
    fit: () => {
      const p = latest.current;
      camera.current = fitCamera(p.mapWidth, p.mapHeight, size.current.width, size.current.height, p.focus ?? undefined);
      requestDraw.current();
    },
    reveal: revealPoint,
  }));

  // Dragging: the right mouse button, or a finger. A left click that did not drag is a tile click.
  const drag = useRef<{ id: number; x: number; y: number; moved: boolean; button: number } | null>(null);

  return (
    <div
      ref={wrapRef}
      className="tower-map"
      data-testid="tower-map"
      onContextMenu={(e) => e.preventDefault()}
      onPointerDown={(e) => {
        if (e.button !== 0 && e.button !== 2) return;
        drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false, button: e.button };
        if (e.button === 2 || e.pointerType === 'touch') e.currentTarget.setPointerCapture(e.pointerId);
      }}
      onPointerMove={(e) => {
        const d = drag.current;
        if (!d || d.id !== e.pointerId) return;
        const dx = e.clientX - d.x;
        const dy = e.clientY - d.y;
        const pans = d.button === 2 || e.pointerType === 'touch';
        if (!d.moved && Math.hypot(dx, dy) < 6) return;
        d.moved = true;
        if (!pans || !camera.current) return;
        camera.current = pan(camera.current, dx, dy);
        d.x = e.clientX;
        d.y = e.clientY;
        requestDraw.current();
      }}
      onPointerUp={(e) => {
        const d = drag.current;
        drag.current = null;
        if (!d || d.id !== e.pointerId || d.button !== 0 || d.moved || !camera.current) return;
        const rect = e.currentTarget.getBoundingClientRect();
        const tile = tileAtPoint(camera.current, e.clientX - rect.left, e.clientY - rect.top);
        if (tile.x >= 0 && tile.y >= 0 && tile.x < props.mapWidth && tile.y < props.mapHeight) props.onTileClick(tile);
      }}
      onPointerCancel={() => {
        drag.current = null;
      }}
    >
      <canvas ref={canvasRef} role="img" aria-label={props.label} />
    </div>
  );
}
