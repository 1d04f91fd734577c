import type { RefObject } from 'react';
import type { TileMapHandle } from './TileMap.tsx';

/** The zoom and fit buttons over the map (the game's and the replay's). */
export function MapTools({ mapHandle }: { mapHandle: RefObject<TileMapHandle | null> }) {
  return (
    <div className="tower-map-tools">
      <button type="button" className="tower-tool" aria-label="Zoom in" onClick={() => mapHandle.current?.zoomBy(1.25)}>
        +
      </button>
      <button type="button" className="tower-tool" aria-label="Zoom out" onClick={() => mapHandle.current?.zoomBy(0.8)}>
        −
      </button>
      <button type="button" className="tower-tool" aria-label="Fit the map" onClick={() => mapHandle.current?.fit()}>
        ⤢
      </button>
    </div>
  );
}
