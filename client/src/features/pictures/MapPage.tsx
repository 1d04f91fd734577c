import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import { Link } from 'react-router-dom';
import { geoMercator, geoPath } from 'd3-geo';
import Supercluster from 'supercluster';
import { feature } from 'topojson-client';
import type { FeatureCollection, Geometry } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';
// Natural Earth's countries at 1:110m and 1:50m (world-atlas), served by this site as files of the build: no tile server, no other host.
import coarseWorldUrl from 'world-atlas/countries-110m.json?url';
import detailedWorldUrl from 'world-atlas/countries-50m.json?url';
import { MAP_PICTURES_MAX, type Picture } from '@site/contracts/pictures';
import { LoadProblem } from '../../components/Loaded.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { viewerOf } from '../../lib/access.ts';
import { trpc } from '../../lib/trpc.ts';
import './pictures.css';

const MapViewer = lazy(() => import('./MemberViewer.tsx'));

/** The world's width in pixels at zoom 1 (the map's own unit); supercluster's zoom z is 256 * 2^z wide. */
const WORLD = 1024;
const MIN_SCALE = 0.25;
const MAX_SCALE = 2 ** 14;
/** Markers closer than this many pixels join one cluster. */
const CLUSTER_RADIUS = 44;

type View = { k: number; x: number; y: number };
type Point = { id: number };

const projection = geoMercator()
  .scale(WORLD / (2 * Math.PI))
  .translate([WORLD / 2, WORLD / 2]);
const path = geoPath(projection);

/**
 * Past this scale (the world 4 times the 1,024 px of zoom 1 across), Natural Earth's 1:50m borders
 * (740 KB, 241 countries) replace the 1:110m ones (105 KB, 177) that draw the first view: the whole
 * world needs no more, and making the fine one's paths held a phone's main thread for a second.
 */
const DETAIL_FROM_SCALE = 4;
/** Countries drawn into paths per slice of work, the main thread free between slices. */
const COUNTRIES_PER_SLICE = 24;

/** The countries' SVG paths in the map's own unit: the coarse world at once, the detailed one once `detailed` is asked for. */
function useWorld(detailed: boolean) {
  const [countries, setCountries] = useState<{ detailed: boolean; paths: string[] } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const wanted = detailed || countries?.detailed === true;
  useEffect(() => {
    let live = true;
    fetch(wanted ? detailedWorldUrl : coarseWorldUrl)
      .then((res) => (res.ok ? (res.json() as Promise<Topology<{ countries: GeometryCollection }>>) : Promise.reject(new Error(String(res.status)))))
      .then(async (world) => {
        const shapes = (feature(world, world.objects.countries) as FeatureCollection<Geometry>).features;
        const paths: string[] = [];
        for (let i = 0; i < shapes.length; i += COUNTRIES_PER_SLICE) {
          if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
          if (!live) return;
          for (const shape of shapes.slice(i, i + COUNTRIES_PER_SLICE)) paths.push(path(shape) ?? '');
        }
        if (live) setCountries({ detailed: wanted, paths });
      })
      .catch(() => live && setFailed('The world map could not be loaded.'));
    return () => {
      live = false;
    };
  }, [wanted]);
  return { countries: countries?.paths ?? null, failed };
}

function clamp(value: number, low: number, high: number) {
  return Math.min(high, Math.max(low, value));
}

export default function MapPage() {
  const status = trpc.auth.status.useQuery();
  const viewer = viewerOf(status.data);
  const admin = viewer !== null && viewer.level >= 3;
  const located = trpc.pictures.map.useQuery();
  const utils = trpc.useUtils();
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 800, height: 500 });
  const [view, setView] = useState<View | null>(null);
  const [opened, setOpened] = useState<{ pictures: Picture[]; index: number } | null>(null);
  const [openFailed, setOpenFailed] = useState<string | null>(null);

  useEffect(() => {
    document.title = 'Pictures - Map';
  }, []);

  // The map fills its box; the first view shows the whole world.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setSize({ width: element.clientWidth, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const shown: View = view ?? { k: size.width / WORLD, x: 0, y: (size.height - WORLD * (size.width / WORLD)) / 2 };
  const { countries, failed } = useWorld(shown.k >= DETAIL_FROM_SCALE);

  const index = useMemo(() => {
    const data = located.data;
    if (!data) return null;
    const cluster = new Supercluster<Point>({ radius: CLUSTER_RADIUS, maxZoom: 16 });
    cluster.load(
      data.ids.map((id, i) => ({ type: 'Feature', properties: { id }, geometry: { type: 'Point', coordinates: [data.lon[i] ?? 0, data.lat[i] ?? 0] } })),
    );
    return cluster;
  }, [located.data]);

  const markers = useMemo(() => {
    if (!index) return [];
    const invert = (sx: number, sy: number) => projection.invert?.([(sx - shown.x) / shown.k, (sy - shown.y) / shown.k]) ?? [0, 0];
    const [west, north] = invert(0, 0);
    const [east, south] = invert(size.width, size.height);
    const zoom = clamp(Math.floor(Math.log2((WORLD * shown.k) / 256)), 0, 16);
    const bbox: [number, number, number, number] = [clamp(west, -180, 180), clamp(south, -85, 85), clamp(east, -180, 180), clamp(north, -85, 85)];
    return index.getClusters(bbox, zoom).map((c) => {
      const [lon, lat] = c.geometry.coordinates as [number, number];
      const [px = 0, py = 0] = projection([lon, lat]) ?? [];
      const props = c.properties as Point & { cluster?: boolean; cluster_id?: number; point_count?: number };
      return { key: props.cluster ? `c${props.cluster_id}` : `p${props.id}`, x: px * shown.k + shown.x, y: py * shown.k + shown.y, count: props.point_count ?? 1, clusterId: props.cluster ? props.cluster_id : undefined, id: props.id };
    });
  }, [index, shown.k, shown.x, shown.y, size.width, size.height]);

  const zoomAt = useCallback(
    (factor: number, cx: number, cy: number) =>
      setView(() => {
        const k = clamp(shown.k * factor, MIN_SCALE, MAX_SCALE);
        const f = k / shown.k;
        return { k, x: cx - (cx - shown.x) * f, y: cy - (cy - shown.y) * f };
      }),
    [shown.k, shown.x, shown.y],
  );
  const panBy = (dx: number, dy: number) => setView({ ...shown, x: shown.x + dx, y: shown.y + dy });

  // Mouse and touch: one pointer drags, two pinch.
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if ((event.target as Element).closest('[data-marker]')) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const before = pointers.current.get(event.pointerId);
    if (!before) return;
    const others = [...pointers.current.entries()].filter(([id]) => id !== event.pointerId).map(([, p]) => p);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const other = others[0];
    if (other) {
      const rect = event.currentTarget.getBoundingClientRect();
      const factor = Math.hypot(event.clientX - other.x, event.clientY - other.y) / Math.max(1, Math.hypot(before.x - other.x, before.y - other.y));
      zoomAt(factor, (event.clientX + other.x) / 2 - rect.left, (event.clientY + other.y) / 2 - rect.top);
    } else {
      panBy(event.clientX - before.x, event.clientY - before.y);
    }
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => pointers.current.delete(event.pointerId);
  const onWheel = (event: WheelEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    zoomAt(Math.exp(-event.deltaY / 300), event.clientX - rect.left, event.clientY - rect.top);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.target as Element).closest('[data-marker]') && (event.key === 'Enter' || event.key === ' ')) return;
    const step = 80;
    const moves: Record<string, () => void> = {
      ArrowLeft: () => panBy(step, 0),
      ArrowRight: () => panBy(-step, 0),
      ArrowUp: () => panBy(0, step),
      ArrowDown: () => panBy(0, -step),
      '+': () => zoomAt(2, size.width / 2, size.height / 2),
      '=': () => zoomAt(2, size.width / 2, size.height / 2),
      '-': () => zoomAt(0.5, size.width / 2, size.height / 2),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  };

  const open = async (marker: (typeof markers)[number]) => {
    setOpenFailed(null);
    const ids = marker.clusterId !== undefined && index ? index.getLeaves(marker.clusterId, MAP_PICTURES_MAX).map((l) => l.properties.id) : [marker.id];
    try {
      const pictures = await utils.pictures.byIds.fetch({ ids });
      if (pictures.length > 0) setOpened({ pictures, index: 0 });
    } catch (error) {
      setOpenFailed(error instanceof Error ? error.message : 'The pictures could not be loaded.');
    }
  };
  const close = useCallback(() => setOpened(null), []);
  const count = located.data?.ids.length ?? 0;

  return (
    <main className="page pictures-page map-page">
      <header className="gallery-head">
        <h1>Map</h1>
        <nav className="gallery-types" aria-label="Pictures">
          <Link to="/personal/pictures">Gallery</Link>
          <Link to="/personal/pictures/albums">Albums</Link>
        </nav>
      </header>
      <LoadProblem query={located} what="the pictures' places" />
      {located.data && (
        <p data-testid="map-count">
          {count === 0 ? 'No picture says where it was taken yet.' : `${count.toLocaleString('en')} ${count === 1 ? 'picture says' : 'pictures say'} where ${count === 1 ? 'it was' : 'they were'} taken.`}
        </p>
      )}
      <ErrorBubble message={failed ?? openFailed} />
      <div className="map-zoom">
        <button type="button" className="button" onClick={() => zoomAt(2, size.width / 2, size.height / 2)}>
          Zoom in
        </button>
        <button type="button" className="button" onClick={() => zoomAt(0.5, size.width / 2, size.height / 2)}>
          Zoom out
        </button>
        <button type="button" className="button" onClick={() => setView(null)}>
          Whole world
        </button>
      </div>
      <div
        ref={box}
        className="map-box"
        data-testid="map"
        tabIndex={0}
        role="application"
        aria-label="Map of where the pictures were taken: arrow keys move it, + and - zoom, Tab reaches the markers"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onWheel={onWheel}
        onKeyDown={onKeyDown}
      >
        <svg width={size.width} height={size.height} aria-hidden={false}>
          <rect className="map-sea" width={size.width} height={size.height} />
          <g transform={`translate(${shown.x} ${shown.y}) scale(${shown.k})`}>
            {countries?.map((d, i) => <path key={i} className="map-land" d={d} />)}
          </g>
          {markers.map((m) => (
            <g
              key={m.key}
              data-marker=""
              className="map-marker"
              transform={`translate(${m.x} ${m.y})`}
              role="button"
              tabIndex={0}
              aria-label={m.count === 1 ? 'Open 1 picture' : `Open ${m.count} pictures`}
              onClick={() => void open(m)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  void open(m);
                }
              }}
            >
              <circle r={m.count === 1 ? 9 : clamp(12 + Math.log2(m.count) * 3, 14, 30)} />
              {m.count > 1 && (
                <text textAnchor="middle" dy="0.35em">
                  {m.count}
                </text>
              )}
            </g>
          ))}
        </svg>
      </div>
      {opened && (
        <Suspense fallback={null}>
          <MapViewer pictures={opened.pictures} index={opened.index} admin={admin} onMove={(i) => setOpened({ ...opened, index: i })} onClose={close} />
        </Suspense>
      )}
    </main>
  );
}
