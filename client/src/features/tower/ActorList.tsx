import { useDrawnScene, type SceneStore } from './scene-store.ts';

/** The board as text, from the drawn scene: for screen readers and for the browser tests. */
export function ActorList({ store }: { store: SceneStore }) {
  const scene = useDrawnScene(store);
  return (
    <ul className="visually-hidden" aria-label="Who is where" data-testid="actor-list">
      {scene.tokens.map((t) => (
        <li key={t.id} data-actor-id={t.id} data-side={t.side} data-x={t.x} data-y={t.y} data-hp={t.hp}>
          {t.name} ({t.side === 'survivor' ? 'survivor' : t.kind}) at {t.x}, {t.y}, health {t.hp} of {t.hpMax}
        </li>
      ))}
    </ul>
  );
}
